// The round-trip budget of every operation: the most statements (BEGIN and COMMIT included)
// one request of its replayed examples may send to the database (round-trips.test.ts). A
// change that needs more must raise the figure here and say why in the commit. `target` is
// the figure the operation must reach (the hot path's issue); `max` above it is reported.
export interface Budget {
  max: number;
  target?: number;
}

export const ROUND_TRIPS: Record<string, Budget> = {
  getQrCodeBase64: { max: 4 },
  getAccount: { max: 3 },
  deleteAccount: { max: 9 }, // +1: announces the closed account to every process
  listAccounts: { max: 3 },
  createAccount: { max: 6 }, // +1: announces the company's new account to every process
  withdrawFromAccount: { max: 10 },
  getAccountRegister: { max: 2 },
  getAccountRegisterById: { max: 3 },
  deleteAccountRegister: { max: 5 },
  createApplication: { max: 4 },
  listApplications: { max: 1 },
  listApplicationCertificates: { max: 3 },
  createApplicationCertificate: { max: 5 }, // 2 (the application, the insert); the first issuance on a new database also reads, makes and reads back the CA
  getApplicationCertificate: { max: 2 },
  revokeApplicationCertificate: { max: 2 },
  getWebhookTlsSettings: { max: 1 },
  setWebhookTlsSettings: { max: 4 },
  deleteApplication: { max: 5 },
  validateBoleto: { max: 1 },
  listBoletoTransactions: { max: 1 }, // one page with its charges and payments, no count
  getBoletoTransaction: { max: 1 },
  getCashbackBalance: { max: 4 },
  getOrCreateCashback: { max: 4 },
  getChargeQrImage: { max: 3 },
  getPaymentLinkPage: { max: 3 },
  getPaymentLinkStatus: { max: 2 }, // 1 awaiting; +1 once paid (the Pix and its refunds)
  listCharges: { max: 2 },
  createCharge: { max: 5, target: 7 }, // a creation, BEGIN and COMMIT included (1 when it writes only the charge)
  getCharge: { max: 1, target: 1 }, // a read of one object
  deleteCharge: { max: 5 },
  updateChargeExpiry: { max: 7 },
  listChargeRefunds: { max: 2 },
  createChargeRefund: { max: 12 }, // +1: the parts of a split payment, taken back in proportion
  listRefunds: { max: 1 },
  createRefund: { max: 10 },
  getRefund: { max: 1 },
  listRequestLogs: { max: 1, target: 1 }, // the page and its count in one statement
  getRequestLog: { max: 1, target: 1 }, // a read of one object
  getCompany: { max: 1 },
  getCustomer: { max: 1 },
  updateCustomer: { max: 5 },
  listCustomers: { max: 2 },
  createCustomer: { max: 3, target: 7 }, // a creation, BEGIN and COMMIT included
  getDispute: { max: 1 },
  listDisputes: { max: 2 },
  addDisputeEvidence: { max: 4 },
  createFundsRecovery: { max: 6 }, // +1: where the Pix landed and what is left to recover
  getFundsRecovery: { max: 1 },
  cancelFundsRecovery: { max: 4 },
  createKycOnboarding: { max: 9 },
  submitKycOnboarding: { max: 9 },
  listKycRepresentatives: { max: 5 },
  createKycRepresentative: { max: 9 },
  sendKycRepresentativeEmailCode: { max: 12 },
  verifyKycRepresentativeEmailCode: { max: 7 },
  sendKycRepresentativePhoneCode: { max: 11 },
  verifyKycRepresentativePhoneCode: { max: 6 },
  getAccountLimits: { max: 3 },
  listPartnerAffiliates: { max: 4 },
  listPartnerPreRegistrations: { max: 4 },
  createPartnerPreRegistration: { max: 6 },
  getPartnerPreRegistration: { max: 1 },
  createPartnerApplication: { max: 10 },
  listPayments: { max: 2 },
  createPayment: { max: 12, target: 12 }, // money out with autoApprove
  getPayment: { max: 1, target: 1 }, // a read of one object
  approvePayment: { max: 8 },
  listPixKeys: { max: 4 },
  createPixKey: { max: 6 },
  deletePixKey: { max: 5 }, // +1: announces the key's removal to every process (their key caches)
  setDefaultPixKey: { max: 6 }, // +1: announces the new default to every process (their key caches)
  checkPixKey: { max: 5 },
  checkPixKeyByBody: { max: 5 },
  getPixKeyTokens: { max: 1 },
  listPixKeyTokenLogs: { max: 2 },
  listSubAccounts: { max: 1 },
  createSubAccount: { max: 7 },
  getSubAccount: { max: 1 },
  deleteSubAccount: { max: 7 }, // +1: announces its key's removal to every process (their key caches)
  withdrawFromSubAccount: { max: 8 }, // both balances locked to read the available amount, then the move
  debitSubAccount: { max: 6 },
  creditSubAccount: { max: 6 },
  transferBetweenSubAccounts: { max: 7 }, // the balances after the move are read back
  getSubAccountStatement: { max: 2 },
  createTransfer: { max: 7 },
  getStatement: { max: 2 },
  decodeEmv: { max: 0 }, // a location on this server is read over HTTP, as a payer's bank does
  listStaticQrCodes: { max: 2 },
  createStaticQrCode: { max: 5 },
  getStaticQrCode: { max: 1 },
  deleteStaticQrCode: { max: 4 },
  getSubscription: { max: 1 }, // a PIX_RECURRING one reads its recurrence too (2)
  createSubscription: { max: 10 }, // PIX_RECURRING: +4 for its payload location and recurrence
  listSubscriptions: { max: 3 }, // the page, the count, the recurrences of the page
  cancelSubscription: { max: 10 }, // PIX_RECURRING: cancels the recurrence and its open cobrs
  updateSubscriptionValue: { max: 5 },
  listSubscriptionInstallments: { max: 5 }, // the subscription, page, count, charges and cobrs
  getInstallment: { max: 2 },
  createInstallmentCobr: { max: 14 }, // the cobr as POST /pix/v2/cobr makes it, plus the installment
  retryInstallmentCobr: { max: 8 },
  listTransactions: { max: 1 },
  getTransaction: { max: 2 },
  listWebhooks: { max: 2 },
  createWebhook: { max: 4 },
  deleteWebhook: { max: 1 },
  getWebhookPublicKeys: { max: 3 },
  listWebhookEvents: { max: 1 },
  listWebhookIps: { max: 1 },
  listPsps: { max: 1 },
  getReceipt: { max: 1 }, // the transaction with its Pix rows, one statement
  sandboxPayBoleto: { max: 9 }, // BEGIN, lock, credit (2), complete, record, event, read back, COMMIT
  listWebhookDeliveries: { max: 2 }, // the webhook, then the page with its attempts and count in one statement
  redeliverWebhookDelivery: { max: 9 },
  getWebhookDelivery: { max: 1, target: 1 }, // the delivery with its attempts, scoped to the webhook
  testWebhook: { max: 7 }, // webhook; event and delivery in one statement; the attempt's record (4); the read
  listPixWebhooks: { max: 2 },
  listPixWebhookDeliveries: { max: 2 },
  getPixWebhookDelivery: { max: 1, target: 1 },
  redeliverPixWebhookDelivery: { max: 9 },
  listEvents: { max: 1, target: 1 }, // the page and the count in one statement
  getEvent: { max: 1, target: 1 }, // the event with its deliveries' summary
  // Counted until the stream opens (its answer's headers): where it starts (none when resuming
  // with Last-Event-ID). Its polls run outside the request, one statement each per 500 ms.
  streamEvents: { max: 1, target: 1 },
  createSandboxCompany: { max: 6 },
  sandboxPay: { max: 10, target: 12 }, // money in
  sandboxPixIn: { max: 8 },
  sandboxAcceptRec: { max: 14 }, // journeys 3 and 4 pay the charge (as sandboxPay) and approve
  sandboxRejectRec: { max: 8 },
  getSandboxClock: { max: 0 },
  advanceSandboxClock: { max: 6 },
  sandboxAdvanceFundsRecovery: { max: 9 }, // block, return through the rail or release, in the step
  sandboxOpenDispute: { max: 9 },
  sandboxResolveDispute: { max: 8 },
  getSandboxKycCode: { max: 1 },
  setCompanyFeatures: { max: 5 },
  setSandboxCompanyFeatures: { max: 6 },
  getSandboxKycInbox: { max: 1 },
  getKycOnboardingPage: { max: 3 },
  reviewSandboxKycOnboarding: { max: 7 },
  getCob: { max: 1, target: 1 }, // a read of one object
  putCob: { max: 5, target: 7 }, // a creation, BEGIN and COMMIT included (1 on a new txid)
  reviseCob: { max: 10 },
  listCobs: { max: 1 },
  createCob: { max: 5 },
  getCobv: { max: 1 },
  putCobv: { max: 6, target: 7 }, // a creation, BEGIN and COMMIT included (2 on a new txid)
  reviseCobv: { max: 6 },
  listCobvs: { max: 1 },
  getLoteCobv: { max: 3 },
  putLoteCobv: { max: 24 },
  reviseLoteCobv: { max: 15 },
  listLoteCobvs: { max: 2 },
  listLocRecs: { max: 2 },
  createLocRec: { max: 3 },
  getLocRec: { max: 1 },
  unlinkLocRecIdRec: { max: 6 },
  listLocs: { max: 2 },
  createLoc: { max: 3 },
  getLoc: { max: 2 },
  unlinkLocTxid: { max: 6 },
  getPix: { max: 2 },
  listPix: { max: 1 },
  getDevolucao: { max: 1 },
  putDevolucao: { max: 9, target: 12 }, // a devolution; +1: the parts of a split payment
  getWebhook: { max: 1 },
  putWebhook: { max: 4 },
  getWebhookRec: { max: 1 },
  putWebhookRec: { max: 3 },
  deleteWebhookRec: { max: 1 },
  getWebhookCobr: { max: 1 },
  putWebhookCobr: { max: 3 },
  deleteWebhookCobr: { max: 1 },
  getRec: { max: 2 },
  reviseRec: { max: 8 },
  listRecs: { max: 2 },
  createRec: { max: 6 },
  createSolicRec: { max: 6 },
  getSolicRec: { max: 1 },
  reviseSolicRec: { max: 4 },
  getCobr: { max: 2 },
  putCobr: { max: 11 },
  reviseCobr: { max: 6 },
  listCobrs: { max: 2 },
  createCobr: { max: 9 },
  retryCobr: { max: 6 },
  getCobPayload: { max: 1, target: 1 }, // a payload location
  getCobvPayload: { max: 1, target: 1 }, // a payload location
  getRecPayload: { max: 2 },
  issueToken: { max: 1 },
  getJwks: { max: 0 },
};
