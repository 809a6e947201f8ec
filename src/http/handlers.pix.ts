// The handler of every operation of the Pix spec (the generated map: leaving one out fails
// to compile).
import type { PixHandlers } from '../../generated/pix.operations';
import { oauthHandlers } from '../identity/identity.handler';
import { jwksHandlers } from '../signing/signing.handler';
import { pixWebhookHandlers } from '../webhooks/webhooks.handler';
import { pixInPixHandlers } from '../pixin/pix.handler';
import { locHandlers } from '../charges/loc/loc.handler';
import { loteCobvHandlers } from '../charges/lotecobv/lotecobv.handler';
import { payloadHandlers } from '../charges/payload/payload.handler';
import { standardChargeHandlers } from '../charges/standard/standard.handler';
import { recurrenceChargeHandlers, recurrenceHandlers } from '../recurrences/recurrences.handler';

export const pixHandlers: PixHandlers = {
  ...jwksHandlers,
  ...oauthHandlers,
  getCob: standardChargeHandlers.getCob,
  putCob: standardChargeHandlers.putCob,
  reviseCob: standardChargeHandlers.reviseCob,
  listCobs: standardChargeHandlers.listCobs,
  createCob: standardChargeHandlers.createCob,
  getCobv: standardChargeHandlers.getCobv,
  putCobv: standardChargeHandlers.putCobv,
  reviseCobv: standardChargeHandlers.reviseCobv,
  listCobvs: standardChargeHandlers.listCobvs,
  getLoteCobv: loteCobvHandlers.getLoteCobv,
  putLoteCobv: loteCobvHandlers.putLoteCobv,
  reviseLoteCobv: loteCobvHandlers.reviseLoteCobv,
  listLoteCobvs: loteCobvHandlers.listLoteCobvs,
  listLocRecs: recurrenceHandlers.listLocRecs,
  createLocRec: recurrenceHandlers.createLocRec,
  getLocRec: recurrenceHandlers.getLocRec,
  unlinkLocRecIdRec: recurrenceHandlers.unlinkLocRecIdRec,
  listLocs: locHandlers.listLocs,
  createLoc: locHandlers.createLoc,
  getLoc: locHandlers.getLoc,
  unlinkLocTxid: locHandlers.unlinkLocTxid,
  getPix: pixInPixHandlers.getPix,
  listPix: pixInPixHandlers.listPix,
  getDevolucao: pixInPixHandlers.getDevolucao,
  putDevolucao: pixInPixHandlers.putDevolucao,
  getWebhook: pixWebhookHandlers.getWebhook,
  putWebhook: pixWebhookHandlers.putWebhook,
  deleteWebhook: pixWebhookHandlers.deleteWebhook,
  listWebhooks: pixWebhookHandlers.listWebhooks,
  getWebhookRec: pixWebhookHandlers.getWebhookRec,
  putWebhookRec: pixWebhookHandlers.putWebhookRec,
  deleteWebhookRec: pixWebhookHandlers.deleteWebhookRec,
  getWebhookCobr: pixWebhookHandlers.getWebhookCobr,
  putWebhookCobr: pixWebhookHandlers.putWebhookCobr,
  deleteWebhookCobr: pixWebhookHandlers.deleteWebhookCobr,
  getRec: recurrenceHandlers.getRec,
  reviseRec: recurrenceHandlers.reviseRec,
  listRecs: recurrenceHandlers.listRecs,
  createRec: recurrenceHandlers.createRec,
  createSolicRec: recurrenceChargeHandlers.createSolicRec,
  getSolicRec: recurrenceChargeHandlers.getSolicRec,
  reviseSolicRec: recurrenceChargeHandlers.reviseSolicRec,
  getCobr: recurrenceChargeHandlers.getCobr,
  putCobr: recurrenceChargeHandlers.putCobr,
  reviseCobr: recurrenceChargeHandlers.reviseCobr,
  listCobrs: recurrenceChargeHandlers.listCobrs,
  createCobr: recurrenceChargeHandlers.createCobr,
  retryCobr: recurrenceChargeHandlers.retryCobr,
  getCobPayload: payloadHandlers.getCobPayload,
  getCobvPayload: payloadHandlers.getCobvPayload,
  getRecPayload: recurrenceHandlers.getRecPayload,
};
