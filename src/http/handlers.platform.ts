// The handler of every operation of the platform spec (the generated map: leaving one out
// fails to compile).
import type { PlatformHandlers } from '../../generated/platform.operations';
import { accountHandlers } from '../accounts/accounts.handler';
import { pixKeyHandlers } from '../keys/keys.handler';
import { limitsHandlers } from '../limits/limits.handler';
import { paymentHandlers } from '../payments/payments.handler';
import { platformChargeHandlers } from '../charges/platform/platform.handler';
import { imageHandlers } from '../images/images.handler';
import { customerHandlers } from '../customers/customers.handler';
import { qrCodeHandlers } from '../qrcodes/qrcodes.handler';
import { transactionHandlers } from '../transactions/transactions.handler';
import { applicationHandlers, featureHandlers } from '../identity/identity.handler';
import { sandboxHandlers } from '../sandbox/sandbox.handler';
import { webhookHandlers } from '../webhooks/webhooks.handler';
import { eventHandlers } from '../events/events.handler';
import { pixInPlatformHandlers } from '../pixin/platform.handler';
import { fundsRecoveryHandlers } from '../funds-recovery/funds-recovery.handler';
import { disputeHandlers } from '../disputes/disputes.handler';
import { cashbackHandlers } from '../cashback/cashback.handler';
import { subscriptionHandlers } from '../subscriptions/subscriptions.handler';
import { kycHandlers } from '../kyc/kyc.handler';
import { partnerHandlers } from '../partners/partners.handler';
import { sandboxRecHandlers } from '../recurrences/sandbox-rec.handler';
import { subAccountHandlers } from '../subaccounts/subaccounts.handler';
import { transferHandlers } from '../transfers/transfers.handler';
import { decodeHandlers } from '../decode/decode.handler';
import { requestLogHandlers } from '../request-logs/request-logs.handler';
import { directoryHandlers } from '../directory/directory.handler';
import { receiptHandlers } from '../receipts/receipts.handler';
import { boletoHandlers } from '../boletos/boletos.handler';
import { certificateHandlers, webhookTlsHandlers } from '../tls/tls.handler';

export const platformHandlers: PlatformHandlers = {
  ...applicationHandlers,
  ...eventHandlers,
  ...featureHandlers,
  ...sandboxHandlers,
  ...subAccountHandlers,
  ...transferHandlers,
  ...decodeHandlers,
  ...requestLogHandlers,
  ...directoryHandlers,
  ...receiptHandlers,
  ...boletoHandlers,
  ...certificateHandlers,
  ...webhookTlsHandlers,
  getAccount: accountHandlers.getAccount,
  deleteAccount: accountHandlers.deleteAccount,
  listAccounts: accountHandlers.listAccounts,
  createAccount: accountHandlers.createAccount,
  withdrawFromAccount: accountHandlers.withdrawFromAccount,
  getAccountRegister: accountHandlers.getAccountRegister,
  getAccountRegisterById: accountHandlers.getAccountRegisterById,
  deleteAccountRegister: accountHandlers.deleteAccountRegister,
  validateBoleto: paymentHandlers.validateBoleto,
  getCashbackBalance: cashbackHandlers.getCashbackBalance,
  getOrCreateCashback: cashbackHandlers.getOrCreateCashback,
  getChargeQrImage: imageHandlers.getChargeQrImage,
  listCharges: platformChargeHandlers.listCharges,
  createCharge: platformChargeHandlers.createCharge,
  getCharge: platformChargeHandlers.getCharge,
  deleteCharge: platformChargeHandlers.deleteCharge,
  updateChargeExpiry: platformChargeHandlers.updateChargeExpiry,
  listChargeRefunds: pixInPlatformHandlers.listChargeRefunds,
  createChargeRefund: pixInPlatformHandlers.createChargeRefund,
  listRefunds: pixInPlatformHandlers.listRefunds,
  getRefund: pixInPlatformHandlers.getRefund,
  createRefund: pixInPlatformHandlers.createRefund,
  getCompany: accountHandlers.getCompany,
  getCustomer: customerHandlers.getCustomer,
  updateCustomer: customerHandlers.updateCustomer,
  listCustomers: customerHandlers.listCustomers,
  createCustomer: customerHandlers.createCustomer,
  getDispute: disputeHandlers.getDispute,
  listDisputes: disputeHandlers.listDisputes,
  addDisputeEvidence: disputeHandlers.addDisputeEvidence,
  createFundsRecovery: fundsRecoveryHandlers.createFundsRecovery,
  getFundsRecovery: fundsRecoveryHandlers.getFundsRecovery,
  cancelFundsRecovery: fundsRecoveryHandlers.cancelFundsRecovery,
  createKycOnboarding: kycHandlers.createKycOnboarding,
  getSandboxKycCode: kycHandlers.getSandboxKycCode,
  getSandboxKycInbox: kycHandlers.getSandboxKycInbox,
  getKycOnboardingPage: kycHandlers.getKycOnboardingPage,
  reviewSandboxKycOnboarding: kycHandlers.reviewSandboxKycOnboarding,
  submitKycOnboarding: kycHandlers.submitKycOnboarding,
  listKycRepresentatives: kycHandlers.listKycRepresentatives,
  createKycRepresentative: kycHandlers.createKycRepresentative,
  sendKycRepresentativeEmailCode: kycHandlers.sendKycRepresentativeEmailCode,
  verifyKycRepresentativeEmailCode: kycHandlers.verifyKycRepresentativeEmailCode,
  sendKycRepresentativePhoneCode: kycHandlers.sendKycRepresentativePhoneCode,
  verifyKycRepresentativePhoneCode: kycHandlers.verifyKycRepresentativePhoneCode,
  getAccountLimits: limitsHandlers.getAccountLimits,
  listPartnerAffiliates: partnerHandlers.listPartnerAffiliates,
  listPartnerPreRegistrations: partnerHandlers.listPartnerPreRegistrations,
  createPartnerPreRegistration: partnerHandlers.createPartnerPreRegistration,
  getPartnerPreRegistration: partnerHandlers.getPartnerPreRegistration,
  createPartnerApplication: partnerHandlers.createPartnerApplication,
  listPayments: paymentHandlers.listPayments,
  createPayment: paymentHandlers.createPayment,
  getPayment: paymentHandlers.getPayment,
  approvePayment: paymentHandlers.approvePayment,
  listPixKeys: pixKeyHandlers.listPixKeys,
  createPixKey: pixKeyHandlers.createPixKey,
  deletePixKey: pixKeyHandlers.deletePixKey,
  setDefaultPixKey: pixKeyHandlers.setDefaultPixKey,
  checkPixKey: pixKeyHandlers.checkPixKey,
  checkPixKeyByBody: pixKeyHandlers.checkPixKeyByBody,
  getPixKeyTokens: pixKeyHandlers.getPixKeyTokens,
  listPixKeyTokenLogs: pixKeyHandlers.listPixKeyTokenLogs,
  listStaticQrCodes: qrCodeHandlers.listStaticQrCodes,
  createStaticQrCode: qrCodeHandlers.createStaticQrCode,
  getStaticQrCode: qrCodeHandlers.getStaticQrCode,
  deleteStaticQrCode: qrCodeHandlers.deleteStaticQrCode,
  getSubscription: subscriptionHandlers.getSubscription,
  createSubscription: subscriptionHandlers.createSubscription,
  listSubscriptions: subscriptionHandlers.listSubscriptions,
  cancelSubscription: subscriptionHandlers.cancelSubscription,
  updateSubscriptionValue: subscriptionHandlers.updateSubscriptionValue,
  listSubscriptionInstallments: subscriptionHandlers.listSubscriptionInstallments,
  getInstallment: subscriptionHandlers.getInstallment,
  createInstallmentCobr: subscriptionHandlers.createInstallmentCobr,
  retryInstallmentCobr: subscriptionHandlers.retryInstallmentCobr,
  listTransactions: transactionHandlers.listTransactions,
  getTransaction: transactionHandlers.getTransaction,
  listWebhooks: webhookHandlers.listWebhooks,
  createWebhook: webhookHandlers.createWebhook,
  streamEvents: webhookHandlers.streamEvents,
  deleteWebhook: webhookHandlers.deleteWebhook,
  getWebhookPublicKeys: webhookHandlers.getWebhookPublicKeys,
  listWebhookEvents: webhookHandlers.listWebhookEvents,
  listWebhookIps: webhookHandlers.listWebhookIps,
  listWebhookDeliveries: webhookHandlers.listWebhookDeliveries,
  redeliverWebhookDelivery: webhookHandlers.redeliverWebhookDelivery,
  getWebhookDelivery: webhookHandlers.getWebhookDelivery,
  testWebhook: webhookHandlers.testWebhook,
  listPixWebhooks: webhookHandlers.listPixWebhooks,
  listPixWebhookDeliveries: webhookHandlers.listPixWebhookDeliveries,
  getPixWebhookDelivery: webhookHandlers.getPixWebhookDelivery,
  redeliverPixWebhookDelivery: webhookHandlers.redeliverPixWebhookDelivery,
  sandboxPay: pixInPlatformHandlers.sandboxPay,
  sandboxPixIn: pixInPlatformHandlers.sandboxPixIn,
  sandboxAcceptRec: sandboxRecHandlers.sandboxAcceptRec,
  sandboxRejectRec: sandboxRecHandlers.sandboxRejectRec,
  getPaymentLinkPage: imageHandlers.getPaymentLinkPage,
  getPaymentLinkStatus: imageHandlers.getPaymentLinkStatus,
  getQrCodeBase64: imageHandlers.getQrCodeBase64,
  sandboxAdvanceFundsRecovery: fundsRecoveryHandlers.sandboxAdvanceFundsRecovery,
  sandboxOpenDispute: disputeHandlers.sandboxOpenDispute,
  sandboxResolveDispute: disputeHandlers.sandboxResolveDispute,
};
