'use client';

import { ImagePlus } from 'lucide-react';
import {
  type ChangeEvent,
  type FormEvent,
  useActionState,
  useEffect,
  useRef,
  useState,
} from 'react';
import { checkPhotoFile, PHOTO_ACCEPT, PHOTO_LIMITS_TEXT } from '@/lib/photo-upload';
import { Field } from './form/field';
import { SubmitButton } from './form/submit-button';

type TState = { error?: string };
type TProps = { action: (previous: TState, data: FormData) => Promise<TState> };

/**
 * "Add a photo": a file field and a button, posting the file to a server action (multipart), so it
 * works without JavaScript. With it, the chosen photo shows as a preview before it is sent, a file
 * that is too large or of another kind is refused at once (the API checks again, from the bytes),
 * and the button says "Uploading…" while it goes.
 */
export const PhotoUploadForm = ({ action }: TProps) => {
  const [state, formAction, isPending] = useActionState(action, {});
  const [clientError, setClientError] = useState<string>();
  const [preview, setPreview] = useState<{ url: string; name: string }>();
  const [shownState, setShownState] = useState(state);
  const errorRef = useRef<HTMLParagraphElement>(null);
  const [shouldFocusError, setShouldFocusError] = useState(false);

  if (shownState !== state) {
    setShownState(state);
    setClientError(undefined);
    setShouldFocusError(Boolean(state.error));
  }

  useEffect(() => {
    if (shouldFocusError) {
      errorRef.current?.focus();
      setShouldFocusError(false);
    }
  }, [shouldFocusError]);

  // The preview's object URL lives as long as it is shown.
  useEffect(() => () => (preview ? URL.revokeObjectURL(preview.url) : undefined), [preview]);

  const onChange = (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.currentTarget.files?.[0];
    const problem = file ? checkPhotoFile(file) : undefined;
    setClientError(problem);
    setPreview(file && !problem ? { url: URL.createObjectURL(file), name: file.name } : undefined);
  };

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    if (isPending) {
      event.preventDefault();
      return;
    }
    const file = new FormData(event.currentTarget).get('photo');
    const problem = checkPhotoFile(file);
    if (problem) {
      event.preventDefault();
      setClientError(problem);
      setShouldFocusError(true);
    }
  };

  const error = clientError ?? (isPending ? undefined : state.error);
  return (
    <form action={formAction} onSubmit={onSubmit} className="photo-upload" aria-busy={isPending}>
      <Field
        id="photo-file"
        label="Add a photo"
        hint={
          <>{PHOTO_LIMITS_TEXT}. Location and camera details are removed before it is published.</>
        }
        error={error}
        errorFocusRef={errorRef}
      >
        {(control) => (
          <input
            {...control}
            name="photo"
            type="file"
            accept={PHOTO_ACCEPT}
            onChange={onChange}
            className="file-input"
          />
        )}
      </Field>
      {preview ? (
        <figure className="photo-upload__preview">
          {/* biome-ignore lint/performance/noImgElement: a local object URL of the chosen file. */}
          <img
            src={preview.url}
            alt={`Preview of ${preview.name}`}
            className="photo-upload__image"
          />
          <figcaption className="field__hint">Ready to upload: {preview.name}</figcaption>
        </figure>
      ) : null}
      <SubmitButton
        label="Upload photo"
        pendingLabel="Uploading…"
        isPending={isPending}
        icon={<ImagePlus aria-hidden="true" focusable="false" className="button__icon" />}
      />
    </form>
  );
};
