import { formatDate } from '../format.js';
export default async function home(db) { return (await db.from('posts').select('id, title, created_at')).map((p) => formatDate(p.created_at)); }
