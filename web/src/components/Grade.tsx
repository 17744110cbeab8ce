// Grades and severities with their Dutch names; the colour only repeats what the text says.

export function Grade({ grade, score }: { grade: string; score: number }) {
  return (
    <span className={`grade grade-badge grade-${grade}`}>
      {grade} ({score}/100)
    </span>
  );
}

export const SEVERITY_LABELS = { CRITICAL: 'Kritiek', HIGH: 'Hoog', MEDIUM: 'Middel', LOW: 'Laag' } as const;
export const STATUS_LABELS = {
  OPEN: 'Open',
  IN_PROGRESS: 'In behandeling',
  RESOLVED: 'Opgelost',
  ACCEPTED_RISK: 'Risico geaccepteerd',
} as const;

export function Severity({ severity }: { severity: keyof typeof SEVERITY_LABELS }) {
  return <span className={`severity severity-${severity.toLowerCase()}`}>{SEVERITY_LABELS[severity]}</span>;
}
