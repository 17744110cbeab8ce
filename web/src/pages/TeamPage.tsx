import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { ROLES, type Role } from '../../../domain/vocabulary.ts';
import { ErrorText } from '../components/ErrorText.tsx';
import { SecretOnce } from '../components/SecretOnce.tsx';
import { useTRPC, type Me } from '../trpc.ts';

const ROLE_LABELS: Record<Role, string> = { owner: 'Eigenaar', admin: 'Beheerder', member: 'Lid' };

export function TeamPage({ me }: { me: Me }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const team = useQuery({ ...trpc.team.list.queryOptions(), enabled: me.role === 'owner' });
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.team.pathKey() });
  const invite = useMutation(trpc.team.invite.mutationOptions({ onSuccess: refresh }));
  const setRole = useMutation(trpc.team.setRole.mutationOptions({ onSuccess: refresh }));
  const setBlocked = useMutation(trpc.team.setBlocked.mutationOptions({ onSuccess: refresh }));
  const [email, setEmail] = useState('');
  const [role, setInviteRole] = useState<Role>('member');
  if (me.role !== 'owner') {
    return (
      <>
        <h1>Team</h1>
        <p>Alleen de eigenaar van het account beheert het team. Uw rol: {ROLE_LABELS[me.role]}.</p>
      </>
    );
  }
  const submit = (event: FormEvent) => {
    event.preventDefault();
    invite.mutate({ email, role });
  };
  return (
    <>
      <h1>Team</h1>
      {invite.data && (
        <SecretOnce
          label="Uitnodigingslink"
          value={`${window.location.origin}${invite.data.path}`}
          note={`Geef deze link aan ${invite.data.email}; hij werkt één keer, tot ${new Date(invite.data.expires_at).toLocaleString('nl-NL')}.`}
        />
      )}
      <section aria-labelledby="people-title">
        <h2 id="people-title">Mensen</h2>
        <ErrorText error={team.error ?? setRole.error ?? setBlocked.error} />
        {team.data && (
          <table>
            <thead>
              <tr>
                <th scope="col">E-mail</th>
                <th scope="col">Rol</th>
                <th scope="col">Toegang</th>
              </tr>
            </thead>
            <tbody>
              {team.data.users.map((user) => (
                <tr key={user.id}>
                  <th scope="row">{user.email}</th>
                  <td>
                    {user.id === me.user_id ? (
                      ROLE_LABELS[user.role]
                    ) : (
                      <>
                        <label htmlFor={`role-${user.id}`} className="visually-hidden">
                          Rol van {user.email}
                        </label>
                        <select
                          id={`role-${user.id}`}
                          value={user.role}
                          onChange={(e) => setRole.mutate({ user_id: user.id, role: e.target.value as Role })}
                        >
                          {ROLES.map((r) => (
                            <option key={r} value={r}>
                              {ROLE_LABELS[r]}
                            </option>
                          ))}
                        </select>
                      </>
                    )}
                  </td>
                  <td>
                    {user.id === me.user_id ? (
                      'U'
                    ) : (
                      <button
                        type="button"
                        className={user.blocked ? 'secondary' : 'danger'}
                        onClick={() => setBlocked.mutate({ user_id: user.id, blocked: !user.blocked })}
                      >
                        {user.blocked ? 'Deblokkeren' : 'Blokkeren'}
                      </button>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
        {team.data && team.data.invites.length > 0 && (
          <>
            <h3>Openstaande uitnodigingen</h3>
            <ul>
              {team.data.invites.map((i) => (
                <li key={`${i.email}-${i.created_at}`}>
                  {i.email} ({ROLE_LABELS[i.role]}), geldig tot {new Date(i.expires_at).toLocaleString('nl-NL')}
                </li>
              ))}
            </ul>
          </>
        )}
      </section>
      <section aria-labelledby="invite-title" className="card">
        <h2 id="invite-title">Iemand uitnodigen</h2>
        <form onSubmit={submit}>
          <label htmlFor="invite-email">E-mailadres</label>
          <input id="invite-email" type="email" required value={email} onChange={(e) => setEmail(e.target.value)} />
          <label htmlFor="invite-role">Rol</label>
          <select id="invite-role" value={role} onChange={(e) => setInviteRole(e.target.value as Role)}>
            {ROLES.map((r) => (
              <option key={r} value={r}>
                {ROLE_LABELS[r]}
              </option>
            ))}
          </select>
          <button type="submit" disabled={invite.isPending}>
            Uitnodigen
          </button>
          <ErrorText error={invite.error} />
        </form>
      </section>
    </>
  );
}
