import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState, type FormEvent } from 'react';
import { useTRPC } from '../trpc.ts';
import { ErrorText } from './ErrorText.tsx';

/** The member's own notification settings: which mail, personal quiet hours, sites muted until a date. */
export function MyNotifications() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const settings = useQuery(trpc.account.notificationSettings.queryOptions());
  const sites = useQuery(trpc.sites.list.queryOptions({ limit: 100 }));
  const save = useMutation(
    trpc.account.setNotificationSettings.mutationOptions({
      onSuccess: () => queryClient.invalidateQueries({ queryKey: trpc.account.notificationSettings.queryKey() }),
    }),
  );
  const [alerts, setAlerts] = useState(true);
  const [digest, setDigest] = useState(true);
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const [digestHour, setDigestHour] = useState('');
  const [digestDay, setDigestDay] = useState('1');
  const [muteSite, setMuteSite] = useState('');
  const [muteUntil, setMuteUntil] = useState('');
  useEffect(() => {
    if (!settings.data) return;
    setAlerts(settings.data.alerts);
    setDigest(settings.data.digest);
    setFrom(settings.data.quiet_hours?.from ?? '');
    setTo(settings.data.quiet_hours?.to ?? '');
    setDigestHour(settings.data.digest_at ? String(settings.data.digest_at.hour) : '');
    setDigestDay(String(settings.data.digest_at?.weekday ?? 1));
  }, [settings.data]);
  const mutes = settings.data?.mutes ?? [];
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
    const added =
      muteSite && muteUntil ? [{ site_id: muteSite, until: new Date(`${muteUntil}T23:59:59`).toISOString() }] : [];
    save.mutate({
      alerts,
      digest,
      quiet_hours: from && to ? { from, to, zone } : null,
      digest_at: digestHour === '' ? null : { hour: Number(digestHour), weekday: Number(digestDay), zone },
      mutes: [...mutes.filter((m) => m.site_id !== muteSite), ...added],
    });
  };
  const siteName = (id: string) => sites.data?.sites.find((s) => s.id === id)?.name ?? id;
  return (
    <section aria-labelledby="my-notifications-title" className="card">
      <h2 id="my-notifications-title">Meldingen voor u</h2>
      <form onSubmit={submit} aria-label="Uw meldingen">
        <label>
          <input type="checkbox" checked={alerts} onChange={(e) => setAlerts(e.target.checked)} /> Directe meldingen
        </label>
        <label>
          <input type="checkbox" checked={digest} onChange={(e) => setDigest(e.target.checked)} /> Overzichten
        </label>
        <label htmlFor="my-quiet-from">Stil vanaf (leeg: geen eigen stille uren)</label>
        <input id="my-quiet-from" type="time" value={from} onChange={(e) => setFrom(e.target.value)} />
        <label htmlFor="my-quiet-to">Stil tot</label>
        <input id="my-quiet-to" type="time" value={to} onChange={(e) => setTo(e.target.value)} />
        <label htmlFor="my-digest-hour">Overzicht om (uur, leeg: op het uur van de regel)</label>
        <input
          id="my-digest-hour"
          type="number"
          min={0}
          max={23}
          value={digestHour}
          onChange={(e) => setDigestHour(e.target.value)}
        />
        <label htmlFor="my-digest-day">Weekoverzicht op</label>
        <select id="my-digest-day" value={digestDay} onChange={(e) => setDigestDay(e.target.value)}>
          {['zondag', 'maandag', 'dinsdag', 'woensdag', 'donderdag', 'vrijdag', 'zaterdag'].map((day, i) => (
            <option key={day} value={i}>
              {day}
            </option>
          ))}
        </select>
        <label htmlFor="mute-site">Site dempen</label>
        <select id="mute-site" value={muteSite} onChange={(e) => setMuteSite(e.target.value)}>
          <option value="">–</option>
          {sites.data?.sites.map((s) => (
            <option key={s.id} value={s.id}>
              {s.name}
            </option>
          ))}
        </select>
        <label htmlFor="mute-until">Tot en met</label>
        <input id="mute-until" type="date" value={muteUntil} onChange={(e) => setMuteUntil(e.target.value)} />
        {mutes.length > 0 && (
          <ul className="plain small">
            {mutes.map((m) => (
              <li key={m.site_id}>
                {siteName(m.site_id)} gedempt tot {new Date(m.until).toLocaleDateString('nl-NL')}
              </li>
            ))}
          </ul>
        )}
        <button type="submit" className="secondary" disabled={save.isPending}>
          Meldingen opslaan
        </button>
        {save.isSuccess && <span role="status">Meldingen opgeslagen.</span>}
        <ErrorText error={save.error ?? settings.error} />
      </form>
    </section>
  );
}
