import Link from 'next/link';
import { useState } from 'react';
export default function Home() {
  const [n, setN] = useState(0);
  return (
    <main>
      <h1>Bakkerij</h1>
      <Link href="/over">Over ons</Link>
      <button type="button" onClick={() => setN(n + 1)}>
        Broden: {n}
      </button>
    </main>
  );
}
