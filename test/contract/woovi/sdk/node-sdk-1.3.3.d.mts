// What test/contract/woovi-sdk.test.ts uses of the vendored client (see NOTICE.md): the
// answers are read as the JSON the server sends.
export interface ApiConfig {
  appId: string;
  baseUrl?: string;
  retries?: number;
}
// biome-ignore lint: the client's answers are untyped JSON here.
type Call = (...args: any[]) => Promise<any>;
export declare function createClient(config: ApiConfig): Record<string, Record<string, Call>>;
