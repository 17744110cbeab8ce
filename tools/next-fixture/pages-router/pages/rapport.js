import { useEffect, useState } from 'react';
import dynamic from 'next/dynamic';
const Grafiek = dynamic(() => import('../components/grafiek'), { ssr: false });
const PAYMENTS_KEY = '__FIXTURE_SECRET__';
export default function Rapport() {
  const [total, setTotal] = useState(null);
  useEffect(() => {
    fetch('https://api.stripe.com/v1/balance', { headers: { Authorization: `Bearer ${PAYMENTS_KEY}` } })
      .then((r) => r.json())
      .then((body) => setTotal(body.available?.[0]?.amount ?? 0));
  }, []);
  return (
    <main>
      <h1>Rapport</h1>
      <p>Saldo: {total}</p>
      <Grafiek values={[3, 5, 2, 8]} />
    </main>
  );
}
