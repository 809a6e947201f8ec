// The package ships no types; this is the one function used.
declare module 'swagger-ui-dist' {
  export function getAbsoluteFSPath(): string;
}
