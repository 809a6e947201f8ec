// Who is calling: the application behind the credential, and its company.
export interface Principal {
  applicationId: string;
  // The application's public id (what the API names it by); absent on the server's own
  // principals (operators, background jobs).
  clientId?: string;
  companyId: string;
  accountId: string;
  applicationType: 'API' | 'MASTER';
  // null: a legacy application without scopes, allowed everything its company may do.
  scopes: string[] | null;
  features: string[];
}
