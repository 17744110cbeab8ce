export default function Over() {
  return <p>Sinds 1921.</p>;
}
