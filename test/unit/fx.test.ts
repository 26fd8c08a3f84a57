// lib/fx.ts maths and the ECB XML reader (clients/ecb-rates.ts): labelled rows.
import test from 'ava';
import { historyUrlOf, parseEcbXml } from '../../clients/ecb-rates.js';
import { addDays, daysBetween, decimalText, toUsdMicros, usdPerUnit, utcDay } from '../../lib/fx.js';

test('usd_per_unit from two ECB rates: 10 places, half up', (t) => {
  const rows: [string, string, string, string][] = [
    ['EUR itself is the USD rate', '1.0823', '1', '1.0823'],
    ['JPY', '1.0823', '162.34', '0.0066668720'.replace(/0+$/, '')],
    ['GBP', '1.0866', '0.85', '1.2783529412'],
    ['IDR (tiny)', '1.08', '17000', '0.0000635294'],
    ['same as USD', '1.1', '1.1', '1'],
  ];
  for (const [label, usd, units, expected] of rows) t.is(usdPerUnit(usd, units), expected, label);
});

test('price x rate in micro-USD: exact, rounded once', (t) => {
  const rows: [string, number | string, string, number][] = [
    ['EUR 9.99 at 1.0823', 9.99, '1.0823', 10_812_177],
    ['EUR 4.99 at 1.08', 4.99, '1.08', 5_389_200],
    ['JPY 1200 at 0.006666872', 1200, '0.006666872', 8_000_246],
    ['half rounds up', '0.0000005', '1', 1],
    ['zero', 0, '1.5', 0],
  ];
  for (const [label, price, rate, micros] of rows) t.is(toUsdMicros(price, rate), micros, label);
  t.is(decimalText(1e-7), '0.0000001');
  t.throws(() => toUsdMicros(1e12, '1000'), { instanceOf: RangeError });
});

test('UTC days', (t) => {
  t.is(utcDay(Date.parse('2026-11-21T23:59:59Z')), '2026-11-21');
  t.is(addDays('2026-02-28', 1), '2026-03-01');
  t.is(daysBetween('2026-11-20', '2026-11-23'), 3);
});

const ECB = `<?xml version="1.0" encoding="UTF-8"?>
<gesmes:Envelope xmlns:gesmes="http://www.gesmes.org/xml/2002-08-01" xmlns="http://www.ecb.int/vocabulary/2002-08-01/eurofxref">
  <gesmes:subject>Reference rates</gesmes:subject>
  <gesmes:Sender><gesmes:name>European Central Bank</gesmes:name></gesmes:Sender>
  <Cube>
    <Cube time='2026-11-20'>
      <Cube currency='USD' rate='1.0823'/>
      <Cube currency='JPY' rate='162.34'/>
    </Cube>
    <Cube time="2026-11-19">
      <Cube currency="USD" rate="1.0801"/><Cube currency="GBP" rate="0.8512"/>
    </Cube>
  </Cube>
</gesmes:Envelope>`;

test('the ECB XML: every day with its rates, oldest first (either quote style)', (t) => {
  t.deepEqual(parseEcbXml(ECB), [
    { date: '2026-11-19', rates: { USD: '1.0801', GBP: '0.8512' } },
    { date: '2026-11-20', rates: { USD: '1.0823', JPY: '162.34' } },
  ]);
  t.deepEqual(parseEcbXml('<html>maintenance</html>'), []);
});

test('the full history sits beside the configured ECB file', (t) => {
  t.is(
    historyUrlOf('https://www.ecb.europa.eu/stats/eurofxref/eurofxref-hist-90d.xml'),
    'https://www.ecb.europa.eu/stats/eurofxref/eurofxref-hist.xml',
  );
  t.is(historyUrlOf('http://127.0.0.1:9/x/eurofxref-daily.xml'), 'http://127.0.0.1:9/x/eurofxref-hist.xml');
  t.is(historyUrlOf('http://rates.internal/latest.xml'), 'http://rates.internal/latest.xml');
});
