// Search of a home's memory for a host that holds the index itself (the CLI): the one query the service's
// `search.query` channel answers too (handlers/search-query.ts).
export { searchHome } from '../../handlers/search-query';
