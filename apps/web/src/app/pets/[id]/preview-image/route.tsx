import type { TPet } from '@pets/contract/schemas';
import { ImageResponse } from 'next/og';
import {
  Children,
  cloneElement,
  Fragment,
  isValidElement,
  type ReactElement,
  type ReactNode,
} from 'react';
import { Illustration } from '@/components/illustrations';
import { storeConfig } from '@/env';
import { findPet, listCategories } from '@/lib/api';
import { categoryLook } from '@/lib/category-look';
import { parsePetId } from '@/lib/pet-links';
import { PREVIEW_IMAGE_SIZE } from '@/lib/pet-share';

/**
 * The preview picture of an animal without a photo (`og:image` of its page): its name and its
 * kind's drawing on the kind's tile, 1200 × 630 PNG, drawn by Next's image response (Satori and
 * resvg, with the font it ships: nothing fetched). Drawing takes tens of milliseconds of CPU, so
 * each picture is drawn once per process and kept (name, kind and standing are all it shows), and a
 * visitor's page limit at the edge bounds the rest.
 */

/**
 * The drawing with its small parts (eyes, cheeks: components of their own) expanded into plain
 * SVG elements, the only kind Satori draws inside an `<svg>`.
 */
const intrinsic = (node: ReactNode): ReactNode => {
  if (!isValidElement<{ children?: ReactNode }>(node)) {
    return node;
  }
  if (typeof node.type === 'function') {
    return intrinsic((node.type as (props: unknown) => ReactNode)(node.props));
  }
  const children = Children.map(node.props.children, intrinsic);
  if ((node.type as unknown) === Fragment) {
    return children;
  }
  return children === undefined || children === null ? node : cloneElement(node, {}, children);
};

/** Satori sizes an `<svg>` by its own width and height, not its box. */
const sized = (drawing: ReactNode, pixels: number): ReactNode =>
  isValidElement(drawing)
    ? cloneElement(drawing as ReactElement<{ width?: number; height?: number }>, {
        width: pixels,
        height: pixels,
      })
    : drawing;

const STANDING: Record<TPet['status'], string> = {
  available: 'Looking for a home',
  pending: 'Set aside for an adopter',
  sold: 'Adopted',
};

const MAX_KEPT = 500;
const drawn = new Map<string, ArrayBuffer>();

const draw = async (
  pet: Pick<TPet, 'name' | 'status'>,
  categoryName: string | undefined,
  storeName: string,
) => {
  const { name } = pet;
  const key = JSON.stringify([name, pet.status, categoryName ?? '', storeName]);
  const kept = drawn.get(key);
  if (kept) {
    return kept;
  }
  const { illustration, tint, ink } = categoryLook(categoryName);
  const image = new ImageResponse(
    <div
      style={{
        width: '100%',
        height: '100%',
        display: 'flex',
        alignItems: 'center',
        background: '#fbf8f4',
        color: '#2a2420',
        padding: 64,
        gap: 64,
      }}
    >
      <div
        style={{
          width: 440,
          height: 440,
          display: 'flex',
          alignItems: 'center',
          justifyContent: 'center',
          borderRadius: 48,
          background: tint,
          color: ink,
        }}
      >
        {sized(intrinsic(<Illustration kind={illustration} />), 320)}
      </div>
      <div style={{ display: 'flex', flexDirection: 'column', flex: 1, gap: 24 }}>
        <div style={{ fontSize: 36, color: '#9c4221' }}>{storeName}</div>
        <div
          style={{ fontSize: name.length > 14 ? 64 : 88, lineHeight: 1.1 }}
        >{`Meet ${name}`}</div>
        <div style={{ fontSize: 32, color: '#5f554c' }}>{STANDING[pet.status]}</div>
      </div>
    </div>,
    PREVIEW_IMAGE_SIZE,
  );
  const bytes = await image.arrayBuffer();
  if (drawn.size >= MAX_KEPT) {
    drawn.delete(drawn.keys().next().value ?? '');
  }
  drawn.set(key, bytes);
  return bytes;
};

export const GET = async (_request: Request, { params }: { params: Promise<{ id: string }> }) => {
  const petId = parsePetId((await params).id);
  const pet = petId === undefined ? undefined : await findPet(petId);
  if (!pet?.ok) {
    const status = pet === undefined || pet.failure.kind === 'not-found' ? 404 : 503;
    return new Response(null, { status });
  }
  const categories = await listCategories();
  const categoryName = categories.ok
    ? categories.data.find((category) => category.id === pet.data.categoryId)?.name
    : undefined;
  const bytes = await draw(pet.data, categoryName, storeConfig().name);
  return new Response(bytes, {
    headers: {
      'content-type': 'image/png',
      // Shared previews are fetched by other sites' crawlers; an hour keeps a renamed animal fresh.
      'cache-control': 'public, max-age=3600',
    },
  });
};
