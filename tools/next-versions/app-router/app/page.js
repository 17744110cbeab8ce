import Link from 'next/link';
import Teller from './teller';
export default function Home() {
  return (
    <main>
      <h1>Bakkerij</h1>
      <Link href="/over">Over ons</Link>
      <Teller />
    </main>
  );
}
