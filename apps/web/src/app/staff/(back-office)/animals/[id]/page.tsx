import { randomUUID } from 'node:crypto';
import type { Metadata } from 'next';
import Link from 'next/link';
import { notFound } from 'next/navigation';
import { connection } from 'next/server';
import { ApiFailure } from '@/components/api-failure';
import { BackLink } from '@/components/back-link';
import { PageIntro } from '@/components/page-intro';
import { PetForm } from '@/components/pet-form';
import { staffReadFailure } from '@/components/staff-read-failure';
import { listCategories } from '@/lib/api';
import { petHistoryHref } from '@/lib/audit-words';
import { petFormValues } from '@/lib/pet-form';
import { parsePetId, petHref } from '@/lib/pet-links';
import { parsePhotoNotice, parsePhotoProblem } from '@/lib/photo-upload';
import { requireStaffKey } from '@/lib/session';
import { findPetAsStaff } from '@/lib/staff-api';
import { editPet } from './actions';
import { PhotoManager } from './photo-manager';

export const metadata: Metadata = { title: 'Edit an animal' };

type TProps = {
  params: Promise<{ id: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
};

/**
 * An animal's staff page: change its name, category, status and profile, and its photos. Each
 * rendering carries a new token for the upload form (its Idempotency-Key).
 */
const EditPetPage = async ({ params, searchParams }: TProps) => {
  await connection();
  const { apiKey, role } = await requireStaffKey();
  const petId = parsePetId((await params).id);
  if (petId === undefined) {
    notFound();
  }
  const query = await searchParams;
  const here = `/staff/animals/${petId}`;
  const [pet, categories] = await Promise.all([findPetAsStaff(apiKey, petId), listCategories()]);
  if (!pet.ok) {
    return staffReadFailure(pet.failure, here);
  }
  return (
    <div className="narrow">
      <BackLink href="/staff/animals" icon="chevron">
        All animals
      </BackLink>
      <PageIntro title={<>Edit {pet.data.name}</>}>
        Reference #{pet.data.id}. <Link href={petHref(pet.data.id)}>See the public page</Link>
        {/* The audit log is the admins' (the page refuses anyone else). */}
        {role === 'admin' ? (
          <>
            {' '}
            or <Link href={petHistoryHref(pet.data.id)}>this animal&apos;s history</Link>
          </>
        ) : null}
        .
      </PageIntro>
      {query.created !== undefined ? (
        <p className="notice" role="status">
          {pet.data.name} was added and now appears first in the list.
        </p>
      ) : null}
      {query.saved !== undefined ? (
        <p className="notice" role="status">
          Saved.
        </p>
      ) : null}
      {categories.ok ? (
        <PetForm
          categories={categories.data}
          action={editPet.bind(null, pet.data.id)}
          initialState={{ values: petFormValues(pet.data), fieldErrors: {} }}
          submitLabel="Save changes"
          pendingLabel="Saving…"
        />
      ) : (
        <ApiFailure failure={categories.failure} retryHref={here} />
      )}
      <PhotoManager
        petId={pet.data.id}
        name={pet.data.name}
        photos={pet.data.photos}
        uploadToken={randomUUID()}
        notice={parsePhotoNotice(query.photo)}
        problem={parsePhotoProblem(query.problem)}
      />
    </div>
  );
};

export default EditPetPage;
