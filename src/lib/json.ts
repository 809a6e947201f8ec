// A JSON object whose shape nothing here vouches for: a payload read from outside (another
// server's answer, a request body before validation), a column written by several areas over
// time, or the input of a generic walker. Whoever reads one checks each value before use.
export type JsonObject = Record<string, unknown>;

export function isJsonObject(value: unknown): value is JsonObject {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
