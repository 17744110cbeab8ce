export default async function orders(db) { return db.from('orders').select('id, total, customer_email'); }
