import node_crypto from "node:crypto";
const API_BASE_URL = "https://api.woovi.com";
const API_RETRIES = 1;
const API_RETRIE_DELAY = 1000;
const SDK_VERSION = "1.0.0";
const WH_PUBLIC_KEY = "LS0tLS1CRUdJTiBQVUJMSUMgS0VZLS0tLS0KTUlHZk1BMEdDU3FHU0liM0RRRUJBUVVBQTRHTkFEQ0JpUUtCZ1FDLytOdElranpldnZxRCtJM01NdjNiTFhEdApwdnhCalk0QnNSclNkY2EzcnRBd01jUllZdnhTbmQ3amFnVkxwY3RNaU94UU84aWVVQ0tMU1dIcHNNQWpPL3paCldNS2Jxb0c4TU5waS91M2ZwNnp6MG1jSENPU3FZc1BVVUcxOWJ1VzhiaXM1WloySVpnQk9iV1NwVHZKMGNuajYKSEtCQUE4MkpsbitsR3dTMU13SURBUUFCCi0tLS0tRU5EIFBVQkxJQyBLRVktLS0tLQo=";
const WH_ALGORITHM = "sha256";
const WH_SIGNATURE_FORMAT = "base64";
const Headers = {
    AUTHORIZATION: "Authorization",
    CONTENT_TYPE: "Content-Type",
    USER_AGENT: "User-Agent"
};
const getNodeVersion = ()=>process.version;
const getNodeArchitecture = ()=>process.arch;
const getNodePlatform = ()=>process.platform;
const getUserAgent = ()=>`Woovi Node.js SDK v${SDK_VERSION} (node ${getNodeVersion()}-${getNodeArchitecture()}-${getNodePlatform()})`;
const constants = {
    API_BASE_URL,
    API_RETRIES,
    API_RETRIE_DELAY,
    SDK_VERSION,
    Headers,
    WH_ALGORITHM,
    WH_SIGNATURE_FORMAT,
    WH_PUBLIC_KEY,
    getNodeVersion,
    getNodeArchitecture,
    getNodePlatform,
    getUserAgent
};
const RestClient = (clientConfig)=>{
    function appendQueryParamsToUrl(url, queryParams) {
        if (!queryParams) return url;
        const searchParams = new URLSearchParams();
        for(const key in queryParams)if (Object.prototype.hasOwnProperty.call(queryParams, key)) searchParams.append(key, queryParams[key].toString());
        return url.includes("?") ? `${url}&${searchParams.toString()}` : `${url}?${searchParams.toString()}`;
    }
    function retryWithExponentialBackoff(fn, retries) {
        let attempt = 1;
        const execute = async ()=>{
            try {
                return await fn();
            } catch (error) {
                if (attempt >= retries || error.status < 500) throw error;
                const delayMs = constants.API_RETRIE_DELAY * 2 ** attempt;
                await new Promise((resolve)=>setTimeout(resolve, delayMs));
                attempt++;
                return execute();
            }
        };
        return execute();
    }
    async function fetcher(endpoint, config, body) {
        const { queryParams, method = "GET", retries = constants.API_RETRIES, ...customConfig } = config || {};
        const url = appendQueryParamsToUrl(`${clientConfig.baseUrl ?? constants.API_BASE_URL}${endpoint}`, queryParams);
        if (body) customConfig.body = JSON.stringify(body);
        const headers = Object.assign({}, customConfig.headers, {
            [constants.Headers.CONTENT_TYPE]: "application/json",
            [constants.Headers.USER_AGENT]: constants.getUserAgent(),
            [constants.Headers.AUTHORIZATION]: clientConfig.appId
        });
        let response;
        const fetchFn = async ()=>{
            response = await fetch(url, Object.assign({}, {
                ...customConfig,
                method
            }, {
                headers
            }));
            if (response.ok) {
                const data = await response.json();
                return data;
            }
            throw await response.json();
        };
        return await retryWithExponentialBackoff(fetchFn, clientConfig.retries || retries);
    }
    return fetcher;
};
function objectToQueryString(obj) {
    const queryParams = [];
    for(const key in obj)if (Object.prototype.hasOwnProperty.call(obj, key)) queryParams.push(`${encodeURIComponent(key)}=${encodeURIComponent(obj[key])}`);
    return queryParams.join("&");
}
const get = (restClient)=>(data)=>restClient(`/api/v1/account/${data.id}`);
const list = (restClient)=>(pagination = {
        limit: 10,
        skip: 0
    })=>restClient(`/api/v1/account?${objectToQueryString({
            ...pagination
        })}`);
const withdraw = (restClient)=>(data)=>restClient(`/api/v1/account/${data.accountId}`, {
            method: "POST"
        }, data);
const account = (restClient)=>({
        get: get(restClient),
        list: list(restClient),
        withdraw: withdraw(restClient)
    });
const cashback_get = (restClient)=>(data)=>restClient(`/api/v1/cashback-fidelity/balance/${data.taxID}`);
const get_or_create = (restClient)=>(data)=>restClient("/api/v1/cashback-fidelity", {
            method: "POST"
        }, data);
const cashback = (restClient)=>({
        get: cashback_get(restClient),
        getOrCreate: get_or_create(restClient)
    });
const create = (restClient)=>(data, params)=>restClient(`/api/v1/charge?${objectToQueryString({
            ...params
        })}`, {
            method: "POST"
        }, data);
const charge_delete = (restClient)=>(data)=>restClient(`/api/v1/charge/${data.id}`, {
            method: "DELETE"
        });
const charge_get = (restClient)=>(data)=>restClient(`/api/v1/charge/${data.id}`);
const get_qr_code = ({ id, size })=>`https://api.woovi.com/openpix/charge/brcode/image/${id}.png?size=${size || 1024}`;
const charge_list = (restClient)=>(pagination = {
        limit: 10,
        skip: 0
    })=>restClient(`/api/v1/charge?${objectToQueryString({
            ...pagination
        })}`);
const charge = (restClient)=>({
        get: charge_get(restClient),
        create: create(restClient),
        delete: charge_delete(restClient),
        getQrCode: get_qr_code,
        list: charge_list(restClient)
    });
const charge_refund_create = (restClient)=>({ chargeId, ...data })=>restClient(`/api/v1/charge/${chargeId}/refund`, {
            method: 'POST'
        }, data);
const charge_refund_list = (restClient)=>(data, pagination = {
        limit: 10,
        skip: 0
    })=>restClient(`/api/v1/charge/${data.chargeId}/refund?${objectToQueryString({
            ...pagination
        })}`);
const charge_refund = (restClient)=>({
        list: charge_refund_list(restClient),
        create: charge_refund_create(restClient)
    });
const customer_create = (restClient)=>(data)=>restClient('/api/v1/customer', {
            method: "POST"
        }, data);
const customer_get = (restClient)=>(data)=>restClient(`/api/v1/customer/${data.id}`);
const customer_list = (restClient)=>(pagination = {
        limit: 10,
        skip: 0
    })=>restClient(`/api/v1/customer?${objectToQueryString({
            ...pagination
        })}`);
const customer = (restClient)=>({
        get: customer_get(restClient),
        create: customer_create(restClient),
        list: customer_list(restClient)
    });
const create_application = (restClient)=>(data)=>restClient("/api/v1/partner/application", {
            method: "POST"
        }, data);
const create_pre_registration = (restClient)=>(data)=>restClient("/api/v1/partner/company", {
            method: "POST"
        }, data);
const get_pre_registration = (restClient)=>(data)=>restClient(`/api/v1/partner/company/${data.taxID}`);
const list_pre_registration = (restClient)=>()=>restClient('/api/v1/partner/company');
const partner = (restClient)=>({
        get: get_pre_registration(restClient),
        createPreRegistration: create_pre_registration(restClient),
        createApplication: create_application(restClient),
        listPreRegistration: list_pre_registration(restClient)
    });
const approve = (restClient)=>(data)=>restClient("/api/v1/payment/approve", {
            method: "POST"
        }, data);
const payment_create = (restClient)=>(data)=>restClient('/api/v1/payment', {
            method: "POST"
        }, data);
const payment_get = (restClient)=>(data)=>restClient(`/api/v1/payment/${data.id}`);
const payment_list = (restClient)=>(pagination = {
        limit: 10,
        skip: 0
    })=>restClient(`/api/v1/payment?${objectToQueryString({
            ...pagination
        })}`);
const payment = (restClient)=>({
        get: payment_get(restClient),
        create: payment_create(restClient),
        approve: approve(restClient),
        list: payment_list(restClient)
    });
const pix_qr_code_create = (restClient)=>(data)=>restClient("/api/v1/qrcode-static", {
            method: "POST"
        }, data);
const pix_qr_code_get = (restClient)=>(data)=>restClient(`/api/v1/qrcode-static/${data.id}`);
const pix_qr_code_list = (restClient)=>(pagination = {
        limit: 10,
        skip: 0
    })=>restClient(`/api/v1/qrcode-static?${objectToQueryString({
            ...pagination
        })}`);
const pix_qr_code = (restClient)=>({
        get: pix_qr_code_get(restClient),
        create: pix_qr_code_create(restClient),
        list: pix_qr_code_list(restClient)
    });
const refund_create = (restClient)=>(data)=>restClient('/api/v1/refund', {
            method: "POST"
        }, data);
const refund_get = (restClient)=>(data)=>restClient(`/api/v1/refund/${data.id}`);
const refund_list = (restClient)=>(pagination = {
        limit: 10,
        skip: 0
    })=>restClient(`/api/v1/refund?${objectToQueryString({
            ...pagination
        })}`);
const refund = (restClient)=>({
        get: refund_get(restClient),
        create: refund_create(restClient),
        list: refund_list(restClient)
    });
const sub_account_create = (restClient)=>(data)=>restClient('/api/v1/subaccount', {
            method: "POST"
        }, data);
const sub_account_get = (restClient)=>(data)=>restClient(`/api/v1/subaccount/${data.id}`);
const sub_account_list = (restClient)=>(pagination = {
        limit: 10,
        skip: 0
    })=>restClient(`/api/v1/subaccount?${objectToQueryString({
            ...pagination
        })}`);
const sub_account_withdraw = (restClient)=>(data)=>restClient(`/api/v1/subaccount/${data.id}/withdraw`, {}, {
            method: "POST"
        });
const transfer = (restClient)=>(data)=>restClient("/api/v1/subaccount/transfer", {
            method: 'POST'
        }, data);
const debit = (restClient)=>({ id, ...data })=>restClient(`/api/v1/subaccount/${id}/debit`, {
            method: 'POST'
        }, data);
const sub_account = (restClient)=>({
        get: sub_account_get(restClient),
        create: sub_account_create(restClient),
        withdraw: sub_account_withdraw(restClient),
        list: sub_account_list(restClient),
        transfer: transfer(restClient),
        debit: debit(restClient)
    });
const subscription_create = (restClient)=>(data)=>restClient("/api/v1/subscriptions", {
            method: "POST"
        }, data);
const subscription_get = (restClient)=>(data)=>restClient(`/api/v1/subscriptions/${data.id}`);
const subscription = (restClient)=>({
        get: subscription_get(restClient),
        create: subscription_create(restClient)
    });
const transactions_get = (restClient)=>(data)=>restClient(`/api/v1/transaction/${data.id}`);
const transactions_list = (restClient)=>(config = {
        pagination: {
            limit: 10,
            skip: 0
        },
        query: {}
    })=>restClient(`/api/v1/transaction?${objectToQueryString({
            ...config.pagination,
            ...config.query
        })}`);
const transactions = (restClient)=>({
        get: transactions_get(restClient),
        list: transactions_list(restClient)
    });
const transfer_create = (restClient)=>(data)=>restClient('/api/v1/transfer', {
            method: "POST"
        }, data);
const clients_transfer = (restClient)=>({
        create: transfer_create(restClient)
    });
const webhook_create = (restClient)=>(data)=>restClient("/api/v1/webhook", {
            method: "POST"
        }, data);
const webhook_delete = (restClient)=>(data)=>restClient(`/api/v1/webhook/${data.id}`, {
            method: "DELETE"
        });
const handler = (config)=>({
        config: config,
        POST: async (req)=>await handleWebhooks(config, req)
    });
const verifyPayload = ({ payload, signature })=>{
    const publicKey = Buffer.from(constants.WH_PUBLIC_KEY, 'base64').toString('ascii');
    const verify = node_crypto.createVerify(constants.WH_ALGORITHM);
    verify.write(Buffer.from(payload));
    verify.end();
    const isValid = verify.verify(publicKey, signature, constants.WH_SIGNATURE_FORMAT);
    return isValid;
};
async function handleWebhooks(config, req) {
    const webhook_signature = req.headers.get('x-webhook-signature');
    if (!webhook_signature) return new Response('Error occurred -- no x-webhook-signature header', {
        status: 400
    });
    const payloadString = await req.text();
    const payload = JSON.parse(payloadString);
    if (!verifyPayload({
        payload: payloadString,
        signature: webhook_signature
    })) return new Response('Error occurred -- invalid signature', {
        status: 400
    });
    if ('evento' in payload && 'teste_webhook' === payload.evento) return new Response('Test webhook acknowledged', {
        status: 200
    });
    const handlerMap = {
        'OPENPIX:CHARGE_CREATED': config.onChargeCreated,
        'OPENPIX:CHARGE_COMPLETED': config.onChargeCompleted,
        'OPENPIX:CHARGE_EXPIRED': config.onChargeExpired,
        'OPENPIX:TRANSACTION_RECEIVED': config.onTransactionReceived,
        'OPENPIX:TRANSACTION_REFUND_RECEIVED': config.onTransactionRefundReceived,
        'OPENPIX:MOVEMENT_CONFIRMED': config.onMovementConfirmed,
        'OPENPIX:MOVEMENT_FAILED': config.onMovementFailed,
        'OPENPIX:MOVEMENT_REMOVED': config.onMovementRemoved
    };
    if (handlerMap[payload.event]) return await _handler(payload, handlerMap[payload.event]);
    return new Response('', {
        status: 404
    });
}
async function _handler(event, callback) {
    const response = await callback(event);
    if (response) return response;
    return new Response('', {
        status: 200
    });
}
const webhook_list = (restClient)=>(config = {
        pagination: {
            limit: 10,
            skip: 0
        }
    })=>restClient(`/api/v1/webhook?${objectToQueryString({
            ...config.pagination,
            ...config.query
        })}`);
const webhook = (restClient)=>({
        create: webhook_create(restClient),
        delete: webhook_delete(restClient),
        handler: handler,
        list: webhook_list(restClient)
    });
const application_create = (restClient)=>(data)=>restClient('/api/v1/application', {
            method: 'POST'
        }, data);
const application = (restClient)=>({
        create: application_create(restClient)
    });
const create_register = (restClient)=>(data)=>restClient('/api/v1/account-register', {
            method: 'POST'
        }, data);
const account_register_get = (restClient)=>(data)=>restClient(`/api/v1/account-register/${data.taxID}`);
const update_register = (restClient)=>(data, taxID)=>restClient(`/api/v1/account-register/${taxID}`, {
            method: 'PATCH'
        }, data);
const account_register = (restClient)=>({
        create: create_register(restClient),
        get: account_register_get(restClient),
        update: update_register(restClient)
    });
const createClient = (config)=>{
    const requestSender = RestClient({
        ...config || {}
    });
    return {
        account: account(requestSender),
        accountRegister: account_register(requestSender),
        application: application(requestSender),
        cashback: cashback(requestSender),
        charge: charge(requestSender),
        chargeRefund: charge_refund(requestSender),
        customer: customer(requestSender),
        partner: partner(requestSender),
        payment: payment(requestSender),
        pixQrCode: pix_qr_code(requestSender),
        refund: refund(requestSender),
        subAccount: sub_account(requestSender),
        subscription: subscription(requestSender),
        transactions: transactions(requestSender),
        transfer: clients_transfer(requestSender),
        webhook: webhook(requestSender)
    };
};
const src = {
    createClient
};
export { createClient, src as default };
