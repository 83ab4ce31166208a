/** ISO/IEC 7812 check digit: double every second digit from the right, the sum ends in 0. */
export function luhnValid(pan: string): boolean {
  if (!/^\d{2,}$/.test(pan)) return false;
  let sum = 0;
  let double = false;
  for (let i = pan.length - 1; i >= 0; i--) {
    let d = Number(pan[i]);
    if (double) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
    double = !double;
  }
  return sum % 10 === 0;
}
