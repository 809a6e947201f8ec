// Brasília's civil time (America/Sao_Paulo) from the time zone database: the day of an instant,
// a day's first and last instants (across the daylight saving Brazil kept until 2019), the
// RFC 3339 form with the offset, and the wall clock pages show.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import {
  brasiliaDate,
  brasiliaDateTime,
  endOfBrasiliaDay,
  formatBrasiliaDateTime,
  startOfBrasiliaDay,
} from '../../src/lib/brasilia';

test('the civil date of an instant is the Brasília date (UTC-3 today)', () => {
  assert.is(brasiliaDate(new Date('2026-12-16T02:59:59.999Z')), '2026-12-15');
  assert.is(brasiliaDate(new Date('2026-12-16T03:00:00.000Z')), '2026-12-16');
  assert.throws(() => brasiliaDate(new Date('nope')), /invalid/);
});

test('a day starts at midnight in Brasília and ends just before the next one', () => {
  assert.is(startOfBrasiliaDay('2026-12-15').toISOString(), '2026-12-15T03:00:00.000Z');
  assert.is(endOfBrasiliaDay('2026-12-15').toISOString(), '2026-12-16T03:00:00.000Z');
  assert.is(endOfBrasiliaDay('2026-12-31').toISOString(), '2027-01-01T03:00:00.000Z');
  assert.throws(() => startOfBrasiliaDay('15/12/2026'), /not a date/);
});

test('the zone database, not a fixed -03:00: daylight saving days of 2018 and 2019', () => {
  // 2018-11-04: clocks went from 00:00 to 01:00 (-03 to -02); the day began at 01:00.
  assert.is(startOfBrasiliaDay('2018-11-04').toISOString(), '2018-11-04T03:00:00.000Z');
  assert.is(endOfBrasiliaDay('2018-11-04').toISOString(), '2018-11-05T02:00:00.000Z');
  // 2019-02-17: clocks went back from 00:00 to 23:00 of the 16th (-02 to -03).
  assert.is(startOfBrasiliaDay('2019-02-16').toISOString(), '2019-02-16T02:00:00.000Z');
  assert.is(startOfBrasiliaDay('2019-02-17').toISOString(), '2019-02-17T03:00:00.000Z');
});

test('instants with their Brasília offset, and as pages show them', () => {
  assert.is(brasiliaDateTime(new Date('2026-12-16T02:59:59.999Z')), '2026-12-15T23:59:59.999-03:00');
  assert.is(brasiliaDateTime(new Date('2019-01-10T12:00:00.000Z')), '2019-01-10T10:00:00.000-02:00');
  assert.is(formatBrasiliaDateTime(new Date('2026-03-16T02:30:05Z')), '15/03/2026 23:30:05');
});

test.run();
