import Customers from './customers';
export default function Klanten() {
  return (
    <main>
      <h1>Klanten</h1>
      <Customers />
    </main>
  );
}
