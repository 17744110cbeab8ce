/** A set of checkboxes in a fieldset: the values picked out of a fixed list. */
export function CheckboxGroup<T extends string>({
  legend,
  options,
  picked,
  onChange,
}: {
  legend: string;
  options: readonly T[];
  picked: readonly T[];
  onChange: (picked: T[]) => void;
}) {
  const toggle = (option: T) =>
    onChange(picked.includes(option) ? picked.filter((p) => p !== option) : [...picked, option]);
  return (
    <fieldset>
      <legend>{legend}</legend>
      {options.map((option) => (
        <label key={option} className="check">
          <input type="checkbox" checked={picked.includes(option)} onChange={() => toggle(option)} /> {option}
        </label>
      ))}
    </fieldset>
  );
}

/** A labelled filter: "Alle" (the empty value) or one of the options, shown with its label. */
export function FilterSelect({
  id,
  label,
  value,
  options,
  onChange,
}: {
  id: string;
  label: string;
  value: string;
  options: ReadonlyArray<readonly [value: string, label: string]>;
  onChange: (value: string) => void;
}) {
  return (
    <>
      <label htmlFor={id}>{label}</label>
      <select id={id} value={value} onChange={(e) => onChange(e.target.value)}>
        <option value="">Alle</option>
        {options.map(([option, text]) => (
          <option key={option} value={option}>
            {text}
          </option>
        ))}
      </select>
    </>
  );
}
