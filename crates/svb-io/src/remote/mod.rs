//! Objects on object stores and web servers, read by byte ranges through the `object_store`
//! crate (feature `remote`).
//!
//! An object is opened in one round trip: its tail and its head, asked for at once (the tail
//! answers with the object's size and ETag; POD5's footer and tables, a BLOW5 file's end
//! marker, are in it: as much as the format's `FileKind` says, 512 KiB for POD5, 16 KiB for
//! the others). Every later request
//! asks for a range of that same version (`If-Match` its ETag, or its version id): an object
//! replaced while it is read is an error that names it, never a mix of two versions. Small
//! reads are served from ranges fetched whole and kept (at most [`CACHE_BYTES`]); large ones
//! are fetched as asked, and [`Object::prefetch`] fetches many ranges at once (a reader that
//! knows what it will read plans it: one round trip for all of it). Transient failures
//! (connection resets, timeouts, 5xx, 429 / SlowDown) are retried with backoff by
//! `object_store`, then named.
//!
//! Credentials come as the ecosystem provides them: the standard environment variables
//! (`AWS_*`, `GOOGLE_*`, `AZURE_*`, `AWS_ENDPOINT_URL` for S3-compatible stores), instance
//! metadata and web identity; [`set_options`] adds `object_store` configuration keys
//! (`skip_signature` for public buckets, `aws_region`, `aws_endpoint`, ...). No message shows
//! a credential: a URL is shown without user, password and query ([`shown_url`](crate::shown_url)).

mod list;
mod object;
mod requests;
mod store;
mod upload;

pub use list::list;
pub use object::{head, Object};
pub use requests::{options, set_options, traffic, Traffic, CACHE_BYTES};
pub(crate) use store::object_identity;
pub use upload::upload;
pub(crate) use upload::{delete, StagedUpload, StreamSlot, Upload};
