import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { Link, useLocation } from 'wouter';
import { DASHBOARD_PAGES } from '../../../domain/endpoints.ts';
import { useTRPC, type Me } from '../trpc.ts';

const NAV = [
  ['Overzicht', DASHBOARD_PAGES.overview],
  ['Bevindingen', DASHBOARD_PAGES.findings],
  ['API-sleutels', DASHBOARD_PAGES.keys],
  ['Webhooks', DASHBOARD_PAGES.webhooks],
  ['Meldingen', DASHBOARD_PAGES.notifications],
  ['Suggesties', DASHBOARD_PAGES.suggestions],
  ['Team', DASHBOARD_PAGES.team],
] as const;

export function Layout({ me, children }: { me: Me; children: ReactNode }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [location, navigate] = useLocation();
  const logOut = useMutation(
    trpc.account.logOut.mutationOptions({
      onSuccess: async () => {
        navigate(DASHBOARD_PAGES.overview);
        // Every answer was this person's: forget them all and ask who is here now (nobody).
        await queryClient.resetQueries();
      },
    }),
  );
  const current = (path: string) =>
    path === '/' ? location === '/' || location.startsWith('/sites/') : location.startsWith(path);
  return (
    <>
      <a className="skip" href="#inhoud">
        Naar de inhoud
      </a>
      <header className="top">
        <span className="brand">Website Security Scanner</span>
        <nav aria-label="Hoofdmenu">
          <ul>
            {NAV.map(([label, path]) => (
              <li key={path}>
                <Link href={path} aria-current={current(path) ? 'page' : undefined}>
                  {label}
                </Link>
              </li>
            ))}
            {me.is_staff && (
              <li>
                <Link
                  href={DASHBOARD_PAGES.platform}
                  aria-current={current(DASHBOARD_PAGES.platform) ? 'page' : undefined}
                >
                  Platform
                </Link>
              </li>
            )}
          </ul>
        </nav>
        <div className="who">
          <span>
            {me.email} <span className="role">({me.role})</span>
          </span>
          <Link href={DASHBOARD_PAGES.account}>Account</Link>
          <button type="button" className="secondary" onClick={() => logOut.mutate()}>
            Uitloggen
          </button>
        </div>
      </header>
      <main id="inhoud">{children}</main>
    </>
  );
}
