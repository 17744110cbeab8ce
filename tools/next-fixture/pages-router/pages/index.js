import Link from 'next/link';
import dynamic from 'next/dynamic';
const Kaart = dynamic(() => import('../components/kaart'), { ssr: false });
export default function Home() {
  return (
    <main>
      <h1>Acme</h1>
      <nav>
        <Link href="/rapport">Rapport</Link>
      </nav>
      <Kaart />
    </main>
  );
}
