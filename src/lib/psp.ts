// This server as a Pix participant. The ISPB is a made-up one (the sandbox's), written into
// end-to-end ids, return ids and recurrence ids; ISPBs of the simulated outside world differ.
export const OWN_ISPB = '99999999';
export const OWN_PSP_NAME = 'pixgate sandbox PSP';
