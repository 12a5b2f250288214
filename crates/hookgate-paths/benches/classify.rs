//! Cost of loading (compiling) the sensitive-location catalog and of classifying one path.

use std::hint::black_box;
use std::path::{Path, PathBuf};

use criterion::{Criterion, criterion_group, criterion_main};
use hookgate_paths::{Catalog, PathContext};

fn bench(c: &mut Criterion) {
    let ctx = PathContext {
        cwd: PathBuf::from("/work/proj/src"),
        workspace: Some(PathBuf::from("/work/proj")),
        home: Some(PathBuf::from("/home/u")),
    };
    let catalog = Catalog::load();
    c.bench_function("catalog_load", |b| b.iter(Catalog::load));
    for p in [
        "src/main.rs",
        "~/.ssh/id_rsa",
        "/work/proj/.claude/settings.json",
        "/sandbox/../etc/passwd",
    ] {
        c.bench_function(&format!("classify {p}"), |b| {
            b.iter(|| catalog.classify(black_box(Path::new(p)), &ctx).len());
        });
    }
}

criterion_group!(benches, bench);
criterion_main!(benches);
