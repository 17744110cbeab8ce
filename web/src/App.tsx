import { useQuery } from '@tanstack/react-query';
import { Route, Switch } from 'wouter';
import { DASHBOARD_PAGES } from '../../domain/endpoints.ts';
import { Layout } from './components/Layout.tsx';
import { AccountPage } from './pages/AccountPage.tsx';
import { FindingPage } from './pages/FindingPage.tsx';
import { FindingsPage } from './pages/FindingsPage.tsx';
import { InvitePage } from './pages/InvitePage.tsx';
import { KeysPage } from './pages/KeysPage.tsx';
import { LoginPage } from './pages/LoginPage.tsx';
import { OverviewPage } from './pages/OverviewPage.tsx';
import { PlatformPage } from './pages/PlatformPage.tsx';
import { SitePage } from './pages/SitePage.tsx';
import { SuggestionsPage } from './pages/SuggestionsPage.tsx';
import { TeamPage } from './pages/TeamPage.tsx';
import { WebhooksPage } from './pages/WebhooksPage.tsx';
import { NotificationsPage } from './pages/NotificationsPage.tsx';
import { PasswordResetPage } from './pages/PasswordResetPage.tsx';
import { useTRPC } from './trpc.ts';

export function App() {
  const trpc = useTRPC();
  const me = useQuery({ ...trpc.account.me.queryOptions(), retry: false });
  if (me.isPending) return <p className="loading">Laden…</p>;
  return (
    <Switch>
      <Route path={DASHBOARD_PAGES.invite} component={InvitePage} />
      <Route path={DASHBOARD_PAGES.passwordReset} component={PasswordResetPage} />
      <Route>
        {me.data ? (
          <Layout me={me.data}>
            <Switch>
              <Route path={DASHBOARD_PAGES.overview} component={OverviewPage} />
              <Route path={DASHBOARD_PAGES.site}>{(params) => <SitePage siteId={params.id} />}</Route>
              <Route path={DASHBOARD_PAGES.findings} component={FindingsPage} />
              <Route path={DASHBOARD_PAGES.finding}>{(params) => <FindingPage findingId={params.id} />}</Route>
              <Route path={DASHBOARD_PAGES.keys} component={KeysPage} />
              <Route path={DASHBOARD_PAGES.webhooks} component={WebhooksPage} />
              <Route path={DASHBOARD_PAGES.notifications} component={NotificationsPage} />
              <Route path={DASHBOARD_PAGES.suggestions}>{() => <SuggestionsPage isStaff={me.data.is_staff} />}</Route>
              <Route path={DASHBOARD_PAGES.team}>{() => <TeamPage me={me.data} />}</Route>
              <Route path={DASHBOARD_PAGES.account} component={AccountPage} />
              <Route path={DASHBOARD_PAGES.platform} component={PlatformPage} />
              <Route>
                <h1>Pagina niet gevonden</h1>
              </Route>
            </Switch>
          </Layout>
        ) : (
          <LoginPage />
        )}
      </Route>
    </Switch>
  );
}
