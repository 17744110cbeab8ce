'use client';
import { useEffect, useState } from 'react';
// A mistake this fixture exists for: a server-only key in a client component.
const PAYMENTS_KEY = '__FIXTURE_SECRET__';
export default function Customers() {
  const [customers, setCustomers] = useState([]);
  useEffect(() => {
    fetch('https://api.stripe.com/v1/customers?limit=10', { headers: { Authorization: `Bearer ${PAYMENTS_KEY}` } })
      .then((r) => r.json())
      .then((body) => setCustomers(body.data ?? []));
  }, []);
  return (
    <ul>
      {customers.map((c) => (
        <li key={c.id}>{c.email}</li>
      ))}
    </ul>
  );
}
