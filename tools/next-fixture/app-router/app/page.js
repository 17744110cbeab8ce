import Link from 'next/link';
export default function Home() {
  return (
    <main>
      <h1>Acme</h1>
      <nav>
        <Link href="/klanten">Klanten</Link> <Link href="/prijzen">Prijzen</Link>
      </nav>
    </main>
  );
}
