import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { CHANNEL_KINDS, SEVERITIES, type ChannelKind, type Severity } from '../../../domain/vocabulary.ts';
import { ErrorText } from '../components/ErrorText.tsx';
import { SEVERITY_LABELS } from '../components/Grade.tsx';
import { useTRPC, type Outputs } from '../trpc.ts';

const KIND_LABELS: Record<ChannelKind, string> = {
  email: 'E-mail',
  slack: 'Slack',
  teams: 'Microsoft Teams (Workflows)',
  discord: 'Discord',
  mattermost: 'Mattermost',
  google_chat: 'Google Chat',
  ntfy: 'ntfy',
  telegram: 'Telegram',
};
const STATUS_LABELS = { pending: 'wacht', sent: 'verstuurd', failed: 'mislukt', suppressed: 'niet verstuurd' } as const;
const when = (iso: string | null) => (iso ? new Date(iso).toLocaleString('nl-NL') : '–');

/** The target of a new channel from the form's one field: addresses, a URL, or "token chat-id" for Telegram. */
function targetOf(kind: ChannelKind, value: string) {
  if (kind === 'email') return { addresses: value.split(/[\s,]+/).filter(Boolean) };
  if (kind === 'telegram') {
    const [bot_token = '', chat_id = ''] = value.trim().split(/\s+/);
    return { bot_token, chat_id };
  }
  return { url: value.trim() };
}

/** Channels with a test button, rules, and what was sent: the tenant's notifications. */
export function NotificationsPage() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const channels = useQuery(trpc.notifications.listChannels.queryOptions());
  const rules = useQuery(trpc.notifications.listRules.queryOptions());
  const deliveries = useQuery(trpc.notifications.deliveries.queryOptions());
  const preview = useQuery(trpc.notifications.preview.queryOptions());
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.notifications.pathKey() });
  const create = useMutation(trpc.notifications.createChannel.mutationOptions({ onSuccess: refresh }));
  const test = useMutation(trpc.notifications.testChannel.mutationOptions({ onSuccess: refresh }));
  const remove = useMutation(trpc.notifications.deleteChannel.mutationOptions({ onSuccess: refresh }));
  const addRule = useMutation(trpc.notifications.createRule.mutationOptions({ onSuccess: refresh }));
  const removeRule = useMutation(trpc.notifications.deleteRule.mutationOptions({ onSuccess: refresh }));
  const [kind, setKind] = useState<ChannelKind>('email');
  const [name, setName] = useState('');
  const [target, setTarget] = useState('');
  const [ruleName, setRuleName] = useState('');
  const [severity, setSeverity] = useState<Severity>('HIGH');
  const [ruleChannels, setRuleChannels] = useState<string[]>([]);
  const submitChannel = (event: FormEvent) => {
    event.preventDefault();
    create.mutate({ kind, name, target: targetOf(kind, target) });
  };
  const submitRule = (event: FormEvent) => {
    event.preventDefault();
    addRule.mutate({ name: ruleName, min_severity: severity, channel_ids: ruleChannels });
  };
  const channelName = (id: string | null) => channels.data?.channels.find((c) => c.id === id)?.name ?? '–';
  return (
    <>
      <h1>Meldingen</h1>
      <section aria-labelledby="channels-title" className="card">
        <h2 id="channels-title">Kanalen</h2>
        <ul className="plain">
          {channels.data?.channels.map((channel) => (
            <li key={channel.id}>
              <strong>{channel.name}</strong> ({KIND_LABELS[channel.kind]}, {channel.target_hint})
              {!channel.enabled && ` uitgeschakeld: ${channel.disabled_reason ?? ''}`}
              {channel.recipients?.map((r) => (
                <span key={r.address} className="small muted">
                  {' '}
                  {r.address}
                  {r.confirmed ? '' : ' (nog niet bevestigd)'}
                </span>
              ))}{' '}
              <button type="button" className="secondary" onClick={() => test.mutate({ channel_id: channel.id })}>
                Test
              </button>{' '}
              <button type="button" className="secondary" onClick={() => remove.mutate({ channel_id: channel.id })}>
                Verwijderen
              </button>
            </li>
          ))}
        </ul>
        {test.data && (
          <p role="status">
            Testbericht: {STATUS_LABELS[test.data.delivery.status]}
            {test.data.delivery.last_error ? ` (${test.data.delivery.last_error})` : ''}
          </p>
        )}
        <form onSubmit={submitChannel} aria-label="Kanaal toevoegen">
          <label htmlFor="channel-kind">Soort</label>
          <select id="channel-kind" value={kind} onChange={(e) => setKind(e.target.value as ChannelKind)}>
            {CHANNEL_KINDS.map((k) => (
              <option key={k} value={k}>
                {KIND_LABELS[k]}
              </option>
            ))}
          </select>
          <label htmlFor="channel-name">Naam</label>
          <input id="channel-name" required value={name} onChange={(e) => setName(e.target.value)} />
          <label htmlFor="channel-target">
            {kind === 'email'
              ? 'Adressen (komma of spatie ertussen)'
              : kind === 'telegram'
                ? 'Bottoken en chat-id'
                : 'Webhook-URL (https)'}
          </label>
          <input id="channel-target" required value={target} onChange={(e) => setTarget(e.target.value)} />
          <button type="submit" disabled={create.isPending}>
            Kanaal toevoegen
          </button>
          <ErrorText error={create.error ?? test.error ?? remove.error} />
        </form>
      </section>
      <section aria-labelledby="rules-title" className="card">
        <h2 id="rules-title">Regels</h2>
        <ul className="plain">
          {rules.data?.rules.map((rule) => (
            <li key={rule.id}>
              <strong>{rule.name}</strong>: {SEVERITY_LABELS[rule.min_severity]} en hoger,{' '}
              {rule.mode === 'immediate'
                ? 'direct'
                : rule.mode === 'daily'
                  ? 'dagelijks overzicht'
                  : 'wekelijks overzicht'}
              {rule.roles.length > 0 && `, aan ${rule.roles.join(', ')}`}
              {rule.channel_ids.length > 0 && `, via ${rule.channel_ids.map(channelName).join(', ')}`}
              {rule.quiet_hours && `, stil van ${rule.quiet_hours.from} tot ${rule.quiet_hours.to}`}
              {rule.rest && `; de rest in een ${rule.rest.mode === 'weekly' ? 'wekelijks' : 'dagelijks'} overzicht`}{' '}
              <button type="button" className="secondary" onClick={() => removeRule.mutate({ rule_id: rule.id })}>
                Verwijderen
              </button>
              <RulePreview preview={preview.data?.previews.find((p) => p.rule_id === rule.id)} />
            </li>
          ))}
        </ul>
        <form onSubmit={submitRule} aria-label="Regel toevoegen">
          <label htmlFor="rule-name">Naam</label>
          <input id="rule-name" required value={ruleName} onChange={(e) => setRuleName(e.target.value)} />
          <label htmlFor="rule-severity">Vanaf</label>
          <select id="rule-severity" value={severity} onChange={(e) => setSeverity(e.target.value as Severity)}>
            {SEVERITIES.map((s) => (
              <option key={s} value={s}>
                {SEVERITY_LABELS[s]}
              </option>
            ))}
          </select>
          <fieldset>
            <legend>Kanalen</legend>
            {channels.data?.channels.map((channel) => (
              <label key={channel.id}>
                <input
                  type="checkbox"
                  checked={ruleChannels.includes(channel.id)}
                  onChange={(e) =>
                    setRuleChannels(
                      e.target.checked ? [...ruleChannels, channel.id] : ruleChannels.filter((id) => id !== channel.id),
                    )
                  }
                />{' '}
                {channel.name}
              </label>
            ))}
          </fieldset>
          <button type="submit" disabled={addRule.isPending}>
            Regel toevoegen
          </button>
          <ErrorText error={addRule.error ?? removeRule.error} />
        </form>
      </section>
      <section aria-labelledby="deliveries-title" className="card">
        <h2 id="deliveries-title">Verzonden berichten</h2>
        <table aria-label="Verzonden berichten">
          <thead>
            <tr>
              <th scope="col">Gepland</th>
              <th scope="col">Kanaal</th>
              <th scope="col">Status</th>
              <th scope="col">Pogingen</th>
              <th scope="col">Fout</th>
            </tr>
          </thead>
          <tbody>
            {deliveries.data?.deliveries.map((d) => (
              <tr key={d.id}>
                <td>{when(d.created_at)}</td>
                <td>{d.channel_id ? channelName(d.channel_id) : 'e-mail aan een lid'}</td>
                <td>{STATUS_LABELS[d.status]}</td>
                <td>{d.attempts}</td>
                <td>{d.last_error ?? '–'}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </section>
    </>
  );
}

type Preview = Outputs['notifications']['preview']['previews'][number];

/** What the rule would have sent for the latest scans, and to whom. */
function RulePreview({ preview }: { preview: Preview | undefined }) {
  if (!preview) return null;
  const to =
    preview.recipients.map((r) => `${r.to}${r.suppressed ? ` (${r.suppressed})` : ''}`).join(', ') || 'niemand';
  if (preview.messages.length === 0)
    return <p className="small muted">De laatste scans hadden met deze regel niets gestuurd (aan: {to}).</p>;
  return (
    <div className="small muted">
      <p>
        De laatste scans hadden {preview.mode === 'immediate' ? 'direct' : 'in het overzicht'} gestuurd aan {to}:
      </p>
      <ul>
        {preview.messages.map((m) => (
          <li key={m.site_name}>
            {m.site_name}: {m.lines.map((l) => `${l.severity} ${l.title}`).join('; ')}
            {m.more > 0 && ` … en ${m.more} meer`}
          </li>
        ))}
      </ul>
    </div>
  );
}
