'use client';
import { useState } from 'react';
export default function Teller() {
  const [n, setN] = useState(0);
  return (
    <button type="button" onClick={() => setN(n + 1)}>
      Broden: {n}
    </button>
  );
}
