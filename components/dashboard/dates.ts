/**
 * Date filters typed in the dashboard are Brasília calendar days; the services take instants.
 * Brazil has kept UTC-3 all year since daylight saving ended in 2019, so a fixed offset is exact
 * for every date the dashboard can hold.
 */
const DAY = /^\d{4}-\d{2}-\d{2}$/;

export function startOfDayBR(ymd: string | undefined): string | undefined {
  return ymd && DAY.test(ymd) ? `${ymd}T00:00:00.000-03:00` : undefined;
}

export function endOfDayBR(ymd: string | undefined): string | undefined {
  return ymd && DAY.test(ymd) ? `${ymd}T23:59:59.999-03:00` : undefined;
}
