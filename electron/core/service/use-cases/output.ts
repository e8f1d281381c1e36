// What every host's output goes through: the secret engine's masking (a terminal, a log, an MCP client's stdout).
export { maskSecretsDeep, maskSecretsInText } from '../../lint/mask-secrets';
