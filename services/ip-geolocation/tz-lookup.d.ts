/** tz-lookup ships no types: one function, coordinates in degrees → IANA zone; throws on invalid input. */
declare module 'tz-lookup' {
  export default function tzlookup(latitude: number, longitude: number): string;
}
