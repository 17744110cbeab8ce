import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTRPC, type Outputs } from '../trpc.ts';
import { CopyButton } from './CopyButton.tsx';
import { ErrorText } from './ErrorText.tsx';

type Site = Outputs['sites']['get'];

const METHOD_LABELS = { dns: 'DNS-record', file: 'Bestand', meta: 'Meta-tag', operator: 'Beheerder' } as const;
const OUTCOME_LABELS = { present: 'gevonden', absent: 'niet gevonden', unknown: 'niet te controleren' } as const;
const day = (iso: string) => new Date(iso).toLocaleDateString('nl-NL');

/** Why this site's scans are passive, or nothing when its control is shown. */
export function PassiveBanner({ verification }: { verification: Site['verification'] }) {
  if (verification.status === 'verified') return null;
  return (
    <p role="note" className="banner">
      <strong>Passieve scans.</strong>{' '}
      {verification.status === 'lost' && verification.lost_at
        ? `De verificatie is verloren op ${day(verification.lost_at)}: ${verification.reason ?? 'onbekende reden'}.`
        : 'Het eigendom van deze site is niet aangetoond.'}{' '}
      Scans doen alleen wat een browser doet; blootgestelde bestanden, backends en de middleware-bypass worden niet
      getest. Toon het eigendom aan onder "Eigendom aantonen".
    </p>
  );
}

function Copyable({ label, value }: { label: string; value: string }) {
  return (
    <div className="copyable">
      <span className="muted">{label}</span> <code>{value}</code>{' '}
      <CopyButton value={value} label={`${label} kopiëren`} />
    </div>
  );
}

/** The three ways to show control, each with what to publish and its last check, and "Controleer nu". */
export function Verification({ siteId, verification }: { siteId: string; verification: Site['verification'] }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const instructions = useQuery(trpc.sites.verification.queryOptions({ site_id: siteId }));
  const check = useMutation(
    trpc.sites.verify.mutationOptions({
      onSuccess: () =>
        Promise.all([
          queryClient.invalidateQueries({ queryKey: trpc.sites.get.queryKey({ site_id: siteId }) }),
          queryClient.invalidateQueries({ queryKey: trpc.sites.verification.queryKey({ site_id: siteId }) }),
        ]),
    }),
  );
  const data = instructions.data;
  const last = (method: 'dns' | 'file' | 'meta') => {
    const outcome = data?.checks[method];
    return outcome ? (
      <p className="small muted">
        Laatste controle {new Date(outcome.checked_at).toLocaleString('nl-NL')}: {OUTCOME_LABELS[outcome.outcome]} (
        {outcome.reason})
      </p>
    ) : null;
  };
  return (
    <section aria-labelledby="verification-title" className="card">
      <h2 id="verification-title">Eigendom aantonen</h2>
      <p>
        {verification.status === 'verified'
          ? `Aangetoond met ${METHOD_LABELS[verification.method ?? 'operator']} voor ${verification.covers} sinds ${day(verification.verified_at!)}. Scans testen alles.`
          : 'Publiceer één van deze drie; daarna test een scan ook blootgestelde bestanden, backends en de middleware-bypass.'}
      </p>
      <ErrorText error={instructions.error} />
      {data && (
        <>
          <h3>DNS-record (geldt ook voor alle subdomeinen)</h3>
          <Copyable label="Naam (TXT)" value={data.dns.name} />
          <Copyable label="Waarde" value={data.dns.value} />
          {last('dns')}
          <h3>Bestand</h3>
          <Copyable label="Adres" value={data.file.url} />
          <Copyable label="Inhoud" value={data.file.body.trim()} />
          {last('file')}
          <h3>Meta-tag in de &lt;head&gt; van de voorpagina</h3>
          <Copyable label="Tag" value={data.meta.tag} />
          {last('meta')}
        </>
      )}
      <button type="button" onClick={() => check.mutate({ site_id: siteId })} disabled={check.isPending}>
        Controleer nu
      </button>
      {check.isSuccess && (
        <p role="status">
          {check.data.status === 'verified'
            ? 'Eigendom aangetoond.'
            : `Niet aangetoond${check.data.reason ? `: ${check.data.reason}` : ''}.`}
        </p>
      )}
      <ErrorText error={check.error} />
    </section>
  );
}
