import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useLocation } from 'wouter';
import { DASHBOARD_PAGES } from '../../../domain/endpoints.ts';
import { NewPasswordForm } from '../components/NewPasswordForm.tsx';
import { useTRPC } from '../trpc.ts';

/** The one-time invitation link: its token is in the fragment, which never reaches a server log. */
export function InvitePage() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [, navigate] = useLocation();
  const token = window.location.hash.slice(1);
  const accept = useMutation(
    trpc.account.acceptInvite.mutationOptions({
      onSuccess: async () => {
        history.replaceState(null, '', DASHBOARD_PAGES.overview);
        await queryClient.invalidateQueries();
        navigate(DASHBOARD_PAGES.overview);
      },
    }),
  );
  return (
    <main id="inhoud" className="login">
      <h1>Uitnodiging aannemen</h1>
      {token ? (
        <NewPasswordForm
          id="new-password"
          label="Wachtwoord"
          intro={<p>Kies een wachtwoord om het team te versterken.</p>}
          pending={accept.isPending}
          error={accept.error}
          onSubmit={(password) => accept.mutate({ token, password })}
        />
      ) : (
        <p role="alert" className="error">
          Deze link is onvolledig: open de uitnodigingslink precies zoals u die kreeg.
        </p>
      )}
    </main>
  );
}
