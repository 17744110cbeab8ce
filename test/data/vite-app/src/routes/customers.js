import { formatCustomer } from '../format.js';
export default async function customers(db) { return (await db.from('customers').select('id, full_name, email, phone')).map(formatCustomer); }
