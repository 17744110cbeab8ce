import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { ErrorText } from '../components/ErrorText.tsx';
import { useTRPC } from '../trpc.ts';

function People({ tenantId }: { tenantId: string }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const people = useQuery(trpc.staff.people.queryOptions({ tenant_id: tenantId }));
  const block = useMutation(
    trpc.staff.setUserBlocked.mutationOptions({
      onSuccess: () => queryClient.invalidateQueries({ queryKey: trpc.staff.people.queryKey({ tenant_id: tenantId }) }),
    }),
  );
  if (people.error) return <ErrorText error={people.error} />;
  return (
    <ul className="plain">
      {people.data?.map((person) => (
        <li key={person.id}>
          {person.email} ({person.role}){' '}
          <button
            type="button"
            className={person.blocked ? 'secondary' : 'danger'}
            onClick={() => block.mutate({ user_id: person.id, blocked: !person.blocked })}
          >
            {person.blocked ? 'Deblokkeren' : 'Blokkeren'}
          </button>
        </li>
      ))}
      <ErrorText error={block.error} />
    </ul>
  );
}

/** The service's own team: every tenant, suspend and reactivate, block people across tenants. */
export function PlatformPage() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const tenants = useQuery(trpc.staff.tenants.queryOptions());
  const [open, setOpen] = useState<string | null>(null);
  const suspend = useMutation(
    trpc.staff.setSuspended.mutationOptions({
      onSuccess: () => queryClient.invalidateQueries({ queryKey: trpc.staff.pathKey() }),
    }),
  );
  return (
    <>
      <h1>Platform</h1>
      <ErrorText error={tenants.error ?? suspend.error} />
      {tenants.data && (
        <table>
          <thead>
            <tr>
              <th scope="col">Account</th>
              <th scope="col">Abonnement</th>
              <th scope="col">Mensen</th>
              <th scope="col">Status</th>
            </tr>
          </thead>
          <tbody>
            {tenants.data.map((t) => (
              <tr key={t.id}>
                <th scope="row">{t.name}</th>
                <td>{t.plan}</td>
                <td>
                  <button
                    type="button"
                    className="secondary"
                    aria-expanded={open === t.id}
                    onClick={() => setOpen(open === t.id ? null : t.id)}
                  >
                    {t.users} {t.users === 1 ? 'persoon' : 'personen'}
                  </button>
                  {open === t.id && <People tenantId={t.id} />}
                </td>
                <td>
                  {t.suspended ? 'Opgeschort ' : 'Actief '}
                  <button
                    type="button"
                    className={t.suspended ? 'secondary' : 'danger'}
                    onClick={() => suspend.mutate({ tenant_id: t.id, suspended: !t.suspended })}
                  >
                    {t.suspended ? 'Heractiveren' : 'Opschorten'}
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </>
  );
}
