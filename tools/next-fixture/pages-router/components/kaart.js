import { useEffect, useState } from 'react';
const MAPS_ADMIN_TOKEN = '__FIXTURE_LAZY_SECRET__';
export default function Kaart() {
  const [stores, setStores] = useState([]);
  useEffect(() => {
    fetch('https://api.acme-maps.nl/v1/stores', { headers: { Authorization: `Bearer ${MAPS_ADMIN_TOKEN}` } })
      .then((r) => r.json())
      .then(setStores);
  }, []);
  return (
    <ul>
      {stores.map((s) => (
        <li key={s.id}>{s.name}</li>
      ))}
    </ul>
  );
}
