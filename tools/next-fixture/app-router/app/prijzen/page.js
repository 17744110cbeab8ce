export default function Prijzen() {
  return (
    <main>
      <h1>Prijzen</h1>
      <p>Vanaf 9 euro per maand.</p>
    </main>
  );
}
