export const formatCustomer = (c) => `${c.full_name} <${c.email}>`;
export const formatDate = (d) => new Intl.DateTimeFormat('nl-NL').format(new Date(d));
