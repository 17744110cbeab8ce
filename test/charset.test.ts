import { describe, expect, it } from 'vitest';
import { decodeBody } from '../scanner/net/charset.ts';

describe('page decoding', () => {
  it.each([
    [
      'the Content-Type charset',
      Buffer.from('Prijs: \x80 10', 'latin1'),
      'text/html; charset=windows-1252',
      'Prijs: € 10',
    ],
    [
      'a <meta charset> in the first bytes',
      Buffer.from('<meta charset="shift_jis">\x82\xa0', 'latin1'),
      'text/html',
      '<meta charset="shift_jis">あ',
    ],
    [
      'a UTF-8 byte-order mark, which wins over the header',
      Buffer.from([0xef, 0xbb, 0xbf, 0x68, 0xc3, 0xa9]),
      'text/html; charset=iso-8859-1',
      'hé',
    ],
    ['UTF-8 when nothing is declared', Buffer.from('café'), null, 'café'],
    ['UTF-8 when the declared charset is unknown', Buffer.from('café'), 'text/html; charset=x-onzin', 'café'],
  ])('follows %s', (_name, body, contentType, expected) => {
    expect(decodeBody(body, contentType)).toBe(expected);
  });
});
