import type { FastifyInstance, FastifyReply } from 'fastify';
import { MAIL_PAGES } from '../domain/endpoints.ts';
import type { ServiceDeps } from '../services/deps.ts';
import { confirmAddress, describeUnsubscribe, unsubscribeByToken } from '../services/notifications/recipients.ts';
import { allowDashboard } from './security-headers.ts';
import { escapeHtml } from '../services/notifications/message.ts';
import { confirmSignUp } from '../services/account-mail.ts';

function page(
  reply: FastifyReply,
  status: number,
  title: string,
  text: string,
  form?: { action: string; button: string },
) {
  const body = [
    '<!doctype html><html lang="nl"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">',
    `<title>${escapeHtml(title)}</title></head><body><main><h1>${escapeHtml(title)}</h1><p>${escapeHtml(text)}</p>`,
    form
      ? `<form method="post" action="${escapeHtml(form.action)}"><input type="hidden" name="List-Unsubscribe" value="One-Click"><button type="submit">${escapeHtml(form.button)}</button></form>`
      : '',
    '</main></body></html>',
  ].join('');
  return allowDashboard(reply)
    .code(status)
    .type('text/html; charset=utf-8')
    .header('cache-control', 'no-store')
    .send(body);
}

const tokenOf = (query: unknown) => {
  const token = (query as { token?: unknown }).token;
  return typeof token === 'string' && token.length <= 2_000 ? token : '';
};

/**
 * The pages links in mail open: a GET only shows a page with a button (link scanners fetch every
 * link), and the POST of that button, or a mail client's RFC 8058 one-click POST, does the change.
 */
export async function registerMailPages(app: FastifyInstance, deps: ServiceDeps): Promise<void> {
  await app.register(async (scope) => {
    scope.addContentTypeParser(
      'application/x-www-form-urlencoded',
      { parseAs: 'string', bodyLimit: 4_096 },
      (_request, body, done) => done(null, body),
    );
    const action = (path: string, token: string) => `${path}?token=${encodeURIComponent(token)}`;
    scope.get(MAIL_PAGES.confirmAddress, async (request, reply) =>
      page(
        reply,
        200,
        'Adres bevestigen',
        'Bevestig dat dit adres meldingen van de beveiligingsscanner mag ontvangen.',
        {
          action: action(MAIL_PAGES.confirmAddress, tokenOf(request.query)),
          button: 'Bevestigen',
        },
      ),
    );
    scope.post(MAIL_PAGES.confirmAddress, async (request, reply) =>
      (await confirmAddress(deps, tokenOf(request.query)))
        ? page(reply, 200, 'Adres bevestigd', 'Dit adres ontvangt voortaan de meldingen.')
        : page(reply, 400, 'Link ongeldig', 'Deze bevestigingslink is onbekend of al gebruikt.'),
    );
    scope.get(MAIL_PAGES.confirmAccount, async (request, reply) =>
      page(reply, 200, 'Account activeren', 'Activeer uw account; daarna kunt u inloggen.', {
        action: action(MAIL_PAGES.confirmAccount, tokenOf(request.query)),
        button: 'Account activeren',
      }),
    );
    scope.post(MAIL_PAGES.confirmAccount, async (request, reply) =>
      (await confirmSignUp(deps, tokenOf(request.query)))
        ? page(reply, 200, 'Account geactiveerd', 'Uw account is actief: log in op de inlogpagina.')
        : page(reply, 400, 'Link ongeldig', 'Deze activeringslink is onbekend, verlopen of al gebruikt.'),
    );
    scope.get(MAIL_PAGES.unsubscribe, async (request, reply) => {
      const token = tokenOf(request.query);
      const what = describeUnsubscribe(deps, token);
      if (!what) return page(reply, 400, 'Link ongeldig', 'Deze afmeldlink is onbekend.');
      return page(reply, 200, 'Afmelden', `Afmelden voor ${what}? Andere ontvangers houden hun berichten.`, {
        action: action(MAIL_PAGES.unsubscribe, token),
        button: 'Afmelden',
      });
    });
    scope.post(MAIL_PAGES.unsubscribe, async (request, reply) =>
      (await unsubscribeByToken(deps, tokenOf(request.query)))
        ? page(reply, 200, 'Afgemeld', 'U ontvangt deze berichten niet meer.')
        : page(reply, 400, 'Link ongeldig', 'Deze afmeldlink is onbekend.'),
    );
  });
}
