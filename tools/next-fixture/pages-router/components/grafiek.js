export default function Grafiek({ values }) {
  const max = Math.max(1, ...values);
  return (
    <svg width="200" height="50">
      {values.map((v, i) => (
        <rect key={i} x={i * 20} y={50 - (v / max) * 50} width="18" height={(v / max) * 50} />
      ))}
    </svg>
  );
}
