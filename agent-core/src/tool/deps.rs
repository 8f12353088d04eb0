//! Dependency injection for tools: [`Dep<T>`], the extractor a tool fn takes its stores,
//! clocks and clients through, and [`Deps`], the type map the registry fills.
//!
//! A `Dep<T>` parameter never appears in the tool's schema: the model cannot see or set it.
//! The registry checks at build time that every dependency a tool declares was provided, so
//! a missing store is a start-up error, not a failed call.

use std::any::{Any, TypeId, type_name};
use std::collections::HashMap;
use std::fmt;
use std::ops::Deref;
use std::sync::Arc;

use super::validate::{ArgumentReader, ArgumentType};

/// A shared dependency injected into a tool fn by the runtime.
///
/// Declare it as a parameter of any type `Dep<T>`; provide the value once with
/// [`RegistryBuilder::dependency`](crate::RegistryBuilder::dependency). `Dep<T>` dereferences
/// to `T`, and cloning it clones an `Arc`.
///
/// In a unit test, call the tool fn directly with `Dep::new(value)`.
pub struct Dep<T: ?Sized>(Arc<T>);

impl<T> Dep<T> {
    /// Wraps a value.
    pub fn new(value: T) -> Self {
        Self(Arc::new(value))
    }
}

impl<T: ?Sized> Dep<T> {
    /// Wraps an already shared value.
    pub fn from_arc(value: Arc<T>) -> Self {
        Self(value)
    }

    /// The shared value.
    pub fn into_arc(self) -> Arc<T> {
        self.0
    }
}

impl<T: ?Sized> Clone for Dep<T> {
    fn clone(&self) -> Self {
        Self(Arc::clone(&self.0))
    }
}

impl<T: ?Sized> Deref for Dep<T> {
    type Target = T;

    fn deref(&self) -> &T {
        &self.0
    }
}

impl<T: ?Sized> AsRef<T> for Dep<T> {
    fn as_ref(&self) -> &T {
        &self.0
    }
}

impl<T: ?Sized + fmt::Debug> fmt::Debug for Dep<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("Dep").field(&&*self.0).finish()
    }
}

impl<T> From<Arc<T>> for Dep<T> {
    fn from(value: Arc<T>) -> Self {
        Self(value)
    }
}

// A `Dep` is never an argument. `#[tool]` cannot see that an alias (`type Store =
// Dep<HabitStore>`) is a `Dep`, so a parameter typed with one and not marked `#[dep]` reaches
// the argument struct; the compiler must then refuse it once, saying to mark it. The schema
// check is that one place: `Dep<T>: JsonSchema` holds only for `T: DepIsNotAnArgument`, which
// no type implements, so the derive reports that trait's message on the parameter's
// type. Reading it must then add no error of its own (`Dep<T>` is not `Deserialize`): the
// inherent `ArgumentType<Dep<T>>::read` wins over `ReadArgument::read` and needs no bound.
// With `#[schemars(with = …)]` nothing derives the schema from the type, so the macro calls
// `refuse_injected`, which carries the same bound.

/// Implemented by no type: the bound that makes a `Dep` that reached a tool's arguments a
/// compile error with this message. Not public API (reachable only through `__private`, so
/// that rustc names it by a short path).
#[diagnostic::on_unimplemented(
    message = "`Dep<{Self}>` is injected by the registry, so it cannot be an argument the model sends",
    label = "`Dep<{Self}>` under another name",
    note = "mark the parameter `#[dep]` to inject it (a type written `Dep<…>` needs no marker)"
)]
pub trait DepIsNotAnArgument {}

/// Never holds (see above); it exists for its error message.
#[doc(hidden)]
impl<T: ?Sized + DepIsNotAnArgument> schemars::JsonSchema for Dep<T> {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "Dep".into()
    }

    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        // Unreachable: no `T` satisfies the bound. A schema nothing matches, not a panic.
        schemars::json_schema!(false)
    }
}

impl<T> ArgumentType<Dep<T>> {
    /// Reading a `Dep` argument: no `Deserialize` bound, so that the schema's error is the
    /// only one (see above). Never runs, since the crate does not compile.
    pub fn read(self, reader: &mut ArgumentReader<'_>, name: &str) -> Option<Dep<T>> {
        reader.refuse(
            name,
            "a dependency is injected, not read from the arguments",
        );
        None
    }

    /// [`Self::read`], for an argument with `#[serde(default)]`.
    pub fn read_or(
        self,
        reader: &mut ArgumentReader<'_>,
        name: &str,
        _default: impl FnOnce() -> Dep<T>,
    ) -> Option<Dep<T>> {
        self.read(reader, name)
    }

    /// The check for an argument whose schema is not derived from its type.
    pub fn refuse_injected(self)
    where
        T: DepIsNotAnArgument,
    {
    }
}

/// The same for an alias of `Option<Dep<T>>`, whose schema check fails on the `Dep` inside.
impl<T> ArgumentType<Option<Dep<T>>> {
    /// As for `Dep<T>` above: no `Deserialize` bound, and it never runs.
    pub fn read(self, reader: &mut ArgumentReader<'_>, name: &str) -> Option<Option<Dep<T>>> {
        ArgumentType::<Dep<T>>::PROBE.read(reader, name).map(Some)
    }

    /// [`Self::read`], for an argument with `#[serde(default)]`.
    pub fn read_or(
        self,
        reader: &mut ArgumentReader<'_>,
        name: &str,
        _default: impl FnOnce() -> Option<Dep<T>>,
    ) -> Option<Option<Dep<T>>> {
        self.read(reader, name)
    }

    /// The check for an argument whose schema is not derived from its type.
    pub fn refuse_injected(self)
    where
        T: DepIsNotAnArgument,
    {
    }
}

/// A type a tool depends on, as declared by the tool (for start-up checks and messages).
#[derive(Debug, Clone, Copy)]
pub struct Dependency {
    type_id: TypeId,
    type_name: &'static str,
}

impl Dependency {
    /// The dependency on `T` (the `T` of a `Dep<T>` parameter; a trait object such as
    /// `dyn Clock + Send + Sync` too).
    pub fn of<T: ?Sized + Send + Sync + 'static>() -> Self {
        Self {
            type_id: TypeId::of::<T>(),
            type_name: type_name::<T>(),
        }
    }

    /// The Rust type name, for messages.
    pub fn type_name(&self) -> &'static str {
        self.type_name
    }

    pub(crate) fn type_id(&self) -> TypeId {
        self.type_id
    }
}

impl PartialEq for Dependency {
    fn eq(&self, other: &Self) -> bool {
        self.type_id == other.type_id
    }
}

/// The dependencies available to tools, keyed by type. Cheap to clone.
///
/// Each value is kept as the `Arc<T>` it was provided as, behind `dyn Any`: an `Arc` of a
/// trait object (`Arc<dyn Clock + Send + Sync>`) is sized and `Any` where the trait object
/// itself is neither, so `Dep<dyn Clock + Send + Sync>` is found like any other.
#[derive(Clone, Default)]
pub struct Deps {
    map: Arc<HashMap<TypeId, Arc<dyn Any + Send + Sync>>>,
}

impl Deps {
    /// Looks up the dependency of type `T`.
    pub fn get<T: ?Sized + Send + Sync + 'static>(&self) -> Option<Dep<T>> {
        let value = self.map.get(&TypeId::of::<T>())?;
        value.downcast_ref::<Arc<T>>().cloned().map(Dep)
    }

    /// `true` when a value of the dependency's type was provided.
    pub fn provides(&self, dependency: &Dependency) -> bool {
        self.map.contains_key(&dependency.type_id())
    }

    /// The number of dependencies.
    pub fn len(&self) -> usize {
        self.map.len()
    }

    /// `true` when there are none.
    pub fn is_empty(&self) -> bool {
        self.map.is_empty()
    }
}

impl fmt::Debug for Deps {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Deps")
            .field("len", &self.map.len())
            .finish()
    }
}

/// Collects dependencies before they are frozen into a [`Deps`].
#[derive(Default)]
pub(crate) struct DepsBuilder {
    map: HashMap<TypeId, Arc<dyn Any + Send + Sync>>,
}

impl DepsBuilder {
    pub(crate) fn insert<T: ?Sized + Send + Sync + 'static>(&mut self, value: Arc<T>) {
        // A later value of the same type replaces the earlier one, like `HashMap::insert`.
        self.map.insert(TypeId::of::<T>(), Arc::new(value));
    }

    pub(crate) fn build(self) -> Deps {
        Deps {
            map: Arc::new(self.map),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug, PartialEq)]
    struct Store(u32);

    #[test]
    fn deps_are_found_by_type() {
        let mut builder = DepsBuilder::default();
        builder.insert(Arc::new(Store(7)));
        let deps = builder.build();
        assert_eq!(deps.get::<Store>().map(|d| d.0.0), Some(7));
        assert!(deps.get::<String>().is_none());
        assert!(deps.provides(&Dependency::of::<Store>()));
        assert!(!deps.provides(&Dependency::of::<u8>()));
        assert_eq!(deps.len(), 1);
    }

    trait Clock {
        fn now(&self) -> u32;
    }

    struct Fixed;

    impl Clock for Fixed {
        fn now(&self) -> u32 {
            9
        }
    }

    #[test]
    fn a_trait_object_is_a_dependency() {
        let mut builder = DepsBuilder::default();
        let clock: Arc<dyn Clock + Send + Sync> = Arc::new(Fixed);
        builder.insert(clock);
        let deps = builder.build();
        assert_eq!(
            deps.get::<dyn Clock + Send + Sync>().map(|c| c.now()),
            Some(9)
        );
        assert!(deps.get::<Fixed>().is_none());
        assert!(deps.provides(&Dependency::of::<dyn Clock + Send + Sync>()));
    }

    #[test]
    fn dep_derefs_and_clones_the_arc() {
        let dep = Dep::new(Store(1));
        let other = dep.clone();
        assert_eq!(*other, Store(1));
        assert_eq!(Arc::strong_count(&dep.into_arc()), 2);
    }
}
