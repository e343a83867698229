// What the page uses of ES2023, which TypeScript 4.8's libraries (Debian's tsc) lack:
// Array.prototype.findLastIndex (Chrome 97, Firefox 104, Safari 15.4).
interface Array<T> {
  findLastIndex(predicate: (value: T, index: number, array: T[]) => unknown, thisArg?: unknown): number;
}
