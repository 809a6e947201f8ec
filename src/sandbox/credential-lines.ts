// How the demo company's credentials are printed (make run on a new database, make
// demo-credentials): one line each, what to do with it in front.
export function credentialLines(application: { appID: string; clientId: string; clientSecret: string }): string {
  return [
    `  appID (platform API, Authorization header): ${application.appID}`,
    `  clientId (Pix API, POST /oauth/token):       ${application.clientId}`,
    `  clientSecret:                                ${application.clientSecret}`,
    '',
  ].join('\n');
}
