import type { Metadata } from 'next';
import { connection } from 'next/server';
import { ApiFailure } from '@/components/api-failure';
import { PageIntro } from '@/components/page-intro';
import { PetForm } from '@/components/pet-form';
import { listCategories } from '@/lib/api';
import { requireStaff } from '@/lib/session';
import { addPet } from './actions';

export const metadata: Metadata = { title: 'Add an animal' };

/** Where signed-in staff add a new arrival. The categories come from the API. */
const NewPetPage = async () => {
  await connection(); // rendered per request: it reads the API
  await requireStaff();
  const categories = await listCategories();
  return (
    <div className="narrow">
      <PageIntro title="Add an animal">
        A new arrival? Add them here and they appear first in the list. Photos come next, on the
        animal&rsquo;s page, once it is saved.
      </PageIntro>
      {categories.ok ? (
        <PetForm categories={categories.data} action={addPet} />
      ) : (
        <ApiFailure failure={categories.failure} retryHref="/staff/animals/new" />
      )}
    </div>
  );
};

export default NewPetPage;
