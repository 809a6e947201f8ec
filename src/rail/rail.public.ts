// What other areas may use of rail: its types, its rules and the storage functions that
// join the caller's transaction. Everything else in src/rail/ is the area's own.
export { cnpjFrom, institutionByCode, madeUpParty, maskCpf } from './outside-world';
export { isOwnLocation, readDynamicPayload, readLocationPayload } from './qr-location';
export { SimulatedRail, localParty, type Destination, type DictEntry, type Party, type Payer, type Rail } from './rail';
