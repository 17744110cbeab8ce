import type { Category, NcscClass, ObservatoryTest, Severity } from '../vocabulary.ts';

/** One finding type's fixed facts and Dutch texts. */
export interface CatalogEntry {
  category: Category;
  severity: Severity;
  title: string;
  description: string;
  impact: string;
  remediation: string;
  expected_value: string;
  reference_url: string;
  /** The Observatory test this finding is about, when there is one. */
  observatory?: ObservatoryTest;
  /** The NCSC-NL TLS guideline's class of the element this finding reports (scoring caps Onvoldoende). */
  ncsc?: NcscClass;
}
