// Whether the marketplace can run a skill: each of its roles needs a listed provider (approved) of
// the role's category, if it names one, that offers one of the role's models. A role no listed
// provider fills says why, so that a skill nobody can run yet says so on its pages.
import type { DirectoryProvider, SkillDocument } from './types';

type Role = SkillDocument['providers'][number];

export interface RoleCover {
  role: string;
  /** the listed providers that fill it */
  providers: DirectoryProvider[];
  /** why none does; absent when some do */
  missing?: string;
}

function offersCategory(provider: DirectoryProvider, category: string): boolean {
  return provider.category === category || (provider.additionalCategories ?? []).includes(category);
}

function modelsText(models: string[]): string {
  return models.length === 1 ? `the model ${models[0]}` : `any of the models ${models.join(', ')}`;
}

/** Each role with the listed providers that fill it, or why none does. */
export function roleCovers(roles: Role[], directory: DirectoryProvider[]): RoleCover[] {
  const listed = directory.filter((p) => p.approval.state === 'approved');
  return roles.map((r) => {
    const category = r.category ?? null;
    const ofCategory = category ? listed.filter((p) => offersCategory(p, category)) : listed;
    if (category && ofCategory.length === 0) {
      return { role: r.role, providers: [], missing: `no listed provider offers the category ${category}` };
    }
    const providers = ofCategory.filter((p) => p.models.some((m) => r.models.includes(m.id)));
    if (providers.length === 0) {
      return { role: r.role, providers, missing: `no listed ${category ? `${category} ` : ''}provider offers ${modelsText(r.models)}` };
    }
    return { role: r.role, providers };
  });
}
