import { test } from 'uvu';
import * as assert from 'uvu/assert';
import {
  addBusinessDays,
  addCalendarDays,
  businessDaysBetween,
  daysBetween,
  easterSunday,
  endsAfterLastDate,
  holidayName,
  isBusinessDay,
  isValidDate,
  nationalHolidays,
  nextBusinessDay,
} from '../../src/lib/business-days';

test('easter sunday for known years (anonymous Gregorian)', () => {
  assert.is(easterSunday(2026), '2026-04-05');
  assert.is(easterSunday(2025), '2025-04-20');
  assert.is(easterSunday(2024), '2024-03-31');
  assert.is(easterSunday(2019), '2019-04-21');
  assert.is(easterSunday(2000), '2000-04-23');
  assert.is(easterSunday(1818), '1818-03-22'); // earliest possible date
  assert.is(easterSunday(2038), '2038-04-25'); // latest possible date
});

test('2026 holiday list', () => {
  assert.equal(
    [...nationalHolidays(2026).keys()],
    [
      '2026-01-01',
      '2026-02-16',
      '2026-02-17',
      '2026-04-03',
      '2026-04-21',
      '2026-05-01',
      '2026-06-04',
      '2026-09-07',
      '2026-10-12',
      '2026-11-02',
      '2026-11-15',
      '2026-11-20',
      '2026-12-25',
    ],
  );
  assert.is(holidayName('2026-04-03'), 'Sexta-feira Santa');
  assert.is(holidayName('2026-04-06'), null);
});

test('Consciência Negra is national only from 2024', () => {
  assert.is(nationalHolidays(2023).has('2023-11-20'), false);
  assert.is(nationalHolidays(2024).has('2024-11-20'), true);
  assert.is(isBusinessDay('2023-11-20'), true); // Monday, not yet a national holiday
  assert.is(isBusinessDay('2025-11-20'), false); // Thursday, holiday
});

test('isBusinessDay: weekends, Easter-based and fixed holidays', () => {
  assert.is(isBusinessDay('2026-02-13'), true); // Friday before Carnival
  assert.is(isBusinessDay('2026-02-14'), false); // Saturday
  assert.is(isBusinessDay('2026-02-15'), false); // Sunday
  assert.is(isBusinessDay('2026-02-16'), false); // Carnival Monday
  assert.is(isBusinessDay('2026-02-17'), false); // Carnival Tuesday
  assert.is(isBusinessDay('2026-02-18'), true); // Ash Wednesday
  assert.is(isBusinessDay('2026-04-03'), false); // Good Friday
  assert.is(isBusinessDay('2026-06-04'), false); // Corpus Christi
  assert.is(isBusinessDay('2026-04-21'), false); // Tiradentes (Tuesday)
  assert.is(isBusinessDay('2026-12-25'), false);
  assert.is(isBusinessDay('2026-03-10'), true);
});

test('nextBusinessDay', () => {
  assert.is(nextBusinessDay('2026-03-10'), '2026-03-10'); // already business
  assert.is(nextBusinessDay('2026-02-14'), '2026-02-18'); // Sat -> skips Sun, Carnival Mon/Tue
  assert.is(nextBusinessDay('2026-04-03'), '2026-04-06'); // Good Friday -> Monday
  assert.is(nextBusinessDay('2026-06-04'), '2026-06-05'); // Corpus Christi -> Friday
  assert.is(nextBusinessDay('2026-12-31'), '2026-12-31'); // Thursday
  assert.is(nextBusinessDay('2027-01-01'), '2027-01-04'); // Fri holiday -> Monday
});

test('addCalendarDays across months, leap years and backwards', () => {
  assert.is(addCalendarDays('2026-01-31', 1), '2026-02-01');
  assert.is(addCalendarDays('2024-02-28', 1), '2024-02-29');
  assert.is(addCalendarDays('2026-02-28', 1), '2026-03-01');
  assert.is(addCalendarDays('2026-03-01', -1), '2026-02-28');
  assert.is(addCalendarDays('2026-12-31', 365), '2027-12-31');
  assert.is(addCalendarDays('2026-05-05', 0), '2026-05-05');
});

test('addBusinessDays', () => {
  assert.is(addBusinessDays('2026-02-13', 1), '2026-02-18'); // Fri + 1 skips weekend and Carnival
  assert.is(addBusinessDays('2026-04-01', 2), '2026-04-06'); // Wed + Thu(1), Good Friday skipped, Mon(2)
  assert.is(addBusinessDays('2026-03-10', 5), '2026-03-17');
  assert.is(addBusinessDays('2026-02-18', -1), '2026-02-13');
  assert.is(addBusinessDays('2026-02-14', 0), '2026-02-14');
});

test('businessDaysBetween counts from < d <= to', () => {
  assert.is(businessDaysBetween('2026-02-13', '2026-02-18'), 1); // only Wed 18
  assert.is(businessDaysBetween('2026-03-10', '2026-03-10'), 0);
  assert.is(businessDaysBetween('2026-03-09', '2026-03-10'), 1);
  assert.is(businessDaysBetween('2026-03-10', '2026-03-15'), 3); // 11,12,13 (14/15 weekend)
  assert.is(businessDaysBetween('2026-04-01', '2026-04-06'), 2); // 02 and 06
  assert.is(businessDaysBetween('2026-04-06', '2026-04-01'), -2);
  // whole of 2026: 52 weeks + 1 extra Thursday = 261 weekdays; holidays on weekdays (11-15 is a Sunday):
  // 01-01 Thu, 02-16, 02-17, 04-03, 04-21 Tue, 05-01 Fri, 06-04, 09-07 Mon,
  // 10-12 Mon, 11-02 Mon, 11-20 Fri, 12-25 Fri = 12 -> 261 - 12 = 249
  assert.is(businessDaysBetween('2025-12-31', '2026-12-31'), 249);
});

test('daysBetween', () => {
  assert.is(daysBetween('2026-03-10', '2026-03-15'), 5);
  assert.is(daysBetween('2026-03-15', '2026-03-10'), -5);
  assert.is(daysBetween('1997-10-07', '2025-02-21'), 9999);
  assert.is(daysBetween('2024-01-01', '2025-01-01'), 366);
});

test('invalid dates throw (programmer error) and isValidDate reports them', () => {
  assert.throws(() => isBusinessDay('2026-02-30'));
  assert.throws(() => addCalendarDays('2026/01/01', 1));
  assert.is(isValidDate('2026-02-28'), true);
  assert.is(isValidDate('2026-02-29'), false);
  assert.is(isValidDate('2024-02-29'), true);
  assert.is(isValidDate('20260101'), false);
});

test('endsAfterLastDate: the calendar ends on 9999-12-31, dates or date-times', () => {
  assert.is(endsAfterLastDate('9999-12-30', 1), false);
  assert.is(endsAfterLastDate('9999-12-30', 2), true);
  assert.is(endsAfterLastDate('2027-01-01T12:00:00Z', 2_147_483_647), true);
  assert.is(endsAfterLastDate('2027-01-01', 30), false);
});

test.run();
