//! Connection hardening, apart from every page: connections bounded per client and in total (`conn`),
//! the bounds themselves (`limits`), floods shunned in the kernel (`shun`), each client's fair share
//! of the store (`fair`), and the HTTP layer's own refusals answered in the API's error shape
//! (`refusals`). Nothing here renders a page.

pub mod conn;
pub mod fair;
pub mod limits;
mod refusals;
mod shun;
